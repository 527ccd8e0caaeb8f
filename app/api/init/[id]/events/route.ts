import { otherMethods } from "@/lib/api/method-not-allowed";
import { streamInitEventsOperation } from "@/lib/api/operations/stream-init-events";
import { route } from "@/lib/api/route";
import { followInit } from "@/lib/init/follow-init";

export const GET = route(streamInitEventsOperation, ({ cfg, params, headers }) => followInit(cfg, params.id, headers.get("last-event-id")));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(streamInitEventsOperation);
