import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";
import { denyFromForm } from "@/lib/init/forms";

// POST /init/{id}/deny — the deny form of the init page
export const POST = formRoute<{ id: string }>(({ id }) => `/init/${encodeURIComponent(id)}`, (request, { id }) => denyFromForm(config(), request, id));
