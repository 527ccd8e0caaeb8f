import { healthAnswerSchema } from "../../health";
import { operation } from "../operation";

// GET /api/health — readiness for load balancers and orchestrators: 200 when the database
// answers, 503 when it does not. /api/live is liveness (the process answers at all).
export const getHealthOperation = operation({
  method: "GET",
  route: "/api/health",
  auth: "none",
  answer: { status: 200 },
  errors: ["unavailable"],
  doc: {
    operationId: "getHealth",
    summary: "Readiness",
    description: "200 when the database answers within two seconds, 503 when it does not: for load balancers and orchestrators.",
    tag: "Service",
    answers: [{ status: 200, description: "Ready.", json: { name: "Health", schema: healthAnswerSchema } }],
  },
});
