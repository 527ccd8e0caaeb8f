import { signedInUserId } from "../auth/sessions";
import type { Config } from "../config";
import { readFormBody } from "../http/body";
import { redirectResponse } from "../http/response";
import { revokeProjectLink } from "./links";

export async function revokeLinkFromForm(cfg: Config, request: Request, projectId: string, linkId: string): Promise<Response> {
  const userId = await signedInUserId(cfg, request.headers, "Sign in to revoke a linked client.");
  await readFormBody(request);
  await revokeProjectLink(userId, projectId, linkId);
  return redirectResponse(cfg.appUrl, `/projects/${encodeURIComponent(projectId)}`);
}
