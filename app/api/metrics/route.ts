import { readMetrics } from "@/lib/metrics/read-metrics";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/metrics — Prometheus metrics: METRICS_TOKEN as a Bearer, or a loopback caller when none is set.
export const GET = route({ auth: "metrics", answer: { text: true } }, () => readMetrics());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
