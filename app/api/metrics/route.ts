import { otherMethods } from "@/lib/api/method-not-allowed";
import { getMetricsOperation } from "@/lib/api/operations/get-metrics";
import { route } from "@/lib/api/route";
import { readMetrics } from "@/lib/metrics/read-metrics";

export const GET = route(getMetricsOperation, () => readMetrics());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(getMetricsOperation);
