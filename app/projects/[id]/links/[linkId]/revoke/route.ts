import { config } from "@/lib/config";
import { formRoute } from "@/lib/http/form-route";
import { revokeLinkFromForm } from "@/lib/links/forms";

// POST /projects/{id}/links/{linkId}/revoke — the Revoke button of a linked client on the project page
export const POST = formRoute<{ id: string; linkId: string }>(
  ({ id }) => `/projects/${encodeURIComponent(id)}`,
  (request, { id, linkId }) => revokeLinkFromForm(config(), request, id, linkId),
);
