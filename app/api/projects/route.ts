import { otherMethods } from "@/lib/api/method-not-allowed";
import { listTokenProjectsOperation } from "@/lib/api/operations/list-token-projects";
import { route } from "@/lib/api/route";
import { projectsForToken } from "@/lib/access-tokens/token-projects";

export const GET = route(listTokenProjectsOperation, ({ auth: token }) => projectsForToken(token));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(listTokenProjectsOperation);
