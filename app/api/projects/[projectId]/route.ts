import { otherMethods } from "@/lib/api/method-not-allowed";
import { getLinkedProjectOperation } from "@/lib/api/operations/get-linked-project";
import { route } from "@/lib/api/route";
import { readLinkedProject } from "@/lib/links/read-linked-project";

export const GET = route(getLinkedProjectOperation, ({ auth: bearer }) => readLinkedProject(bearer));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getLinkedProjectOperation);
