import { otherMethods } from "@/lib/api/method-not-allowed";
import { getLiveOperation } from "@/lib/api/operations/get-live";
import { route } from "@/lib/api/route";

export const GET = route(getLiveOperation, async () => ({ ok: true }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getLiveOperation);
