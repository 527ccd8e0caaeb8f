import { otherMethods } from "@/lib/api/method-not-allowed";
import { getHealthOperation } from "@/lib/api/operations/get-health";
import { route } from "@/lib/api/route";
import { checkHealth } from "@/lib/health";

export const GET = route(getHealthOperation, () => checkHealth());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getHealthOperation);
