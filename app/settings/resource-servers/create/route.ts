import { createResourceServerOperation } from "@/lib/api/operations/resource-servers";
import { route } from "@/lib/api/route";
import { createResourceServer } from "@/lib/resource-servers/manage-resource-servers";

export const POST = route(createResourceServerOperation, ({ auth: user, body }) => createResourceServer(user.id, body));
