import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";
import { approveFromForm } from "@/lib/init/forms";

// POST /init/{id}/approve — the approve form of the init page
export const POST = formRoute<{ id: string }>(({ id }) => `/init/${encodeURIComponent(id)}`, (request, { id }) => approveFromForm(config(), request, id));
