import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";
import { revokeTokenFromForm } from "@/lib/tokens/forms";

// POST /settings/tokens/{id}/revoke — the Revoke button of a token on the settings page
export const POST = formRoute<{ id: string }>(() => "/settings/tokens", (request, { id }) => revokeTokenFromForm(config(), request, id));
