import { operation } from "../operation";

// GET /api/metrics — Prometheus metrics: METRICS_TOKEN as a Bearer, or a loopback caller when none is set.
export const getMetricsOperation = operation({
  method: "GET",
  route: "/api/metrics",
  auth: "metrics",
  answer: { text: true },
  errors: ["unauthorized", "invalid_token", "not_found"],
  database: false,
  doc: {
    operationId: "getMetrics",
    summary: "Metrics",
    description:
      "Prometheus text: requests and their latency by route, waiting clients, the project key pool, process figures; with several workers, the sum of all. With `METRICS_TOKEN` set, only a caller that sends it as a bearer is answered; without it, only a loopback caller.",
    tag: "Service",
    answers: [
      {
        status: 200,
        description: "The metrics, in the Prometheus text format 0.0.4.",
        text: {
          mediaType: "text/plain",
          description: "Prometheus exposition format.",
          example:
            '# HELP initlink_http_requests_total HTTP requests answered, by method, route pattern and status.\n# TYPE initlink_http_requests_total counter\ninitlink_http_requests_total{method="GET",route="/api/init/[id]",status="200"} 42\n',
        },
      },
    ],
  },
});
