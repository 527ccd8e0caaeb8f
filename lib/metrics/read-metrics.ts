import { METRICS_CONTENT_TYPE, metricsText } from "../../server/metrics.mjs";

// GET /api/metrics: the whole server's metrics in Prometheus's text format (server/metrics.mjs
// says what is measured and how workers' metrics are summed).
export async function readMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: METRICS_CONTENT_TYPE, body: await metricsText() };
}
