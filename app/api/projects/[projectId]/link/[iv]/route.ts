import { otherMethods } from "@/lib/api/method-not-allowed";
import { createProjectLinkOperation } from "@/lib/api/operations/create-project-link";
import { route } from "@/lib/api/route";
import { createProjectLink } from "@/lib/links/create-project-link";
import { requestApprovedLink } from "@/lib/links/request-approved-link";

export const POST = route(createProjectLinkOperation, ({ cfg, auth: token, params, origin }) =>
  token === null ? requestApprovedLink(cfg, params.projectId, params.iv, origin) : createProjectLink(cfg, token, params.projectId, params.iv, origin),
);

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(createProjectLinkOperation);
