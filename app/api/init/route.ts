import { otherMethods } from "@/lib/api/method-not-allowed";
import { createInitOperation } from "@/lib/api/operations/create-init";
import { route } from "@/lib/api/route";
import { createInit } from "@/lib/init/create-init";

export const POST = route(createInitOperation, ({ cfg, body, origin }) => createInit(cfg, body, origin));

export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(createInitOperation);
