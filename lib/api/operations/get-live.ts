import { liveAnswerSchema } from "../../health";
import { operation } from "../operation";

// GET /api/live — liveness: answers without touching anything (the benchmark's baseline).
export const getLiveOperation = operation({
  method: "GET",
  route: "/api/live",
  auth: "none",
  answer: { status: 200 },
  errors: [],
  database: false,
  doc: {
    operationId: "getLive",
    summary: "Liveness",
    description: "Answers without touching anything: the process is up.",
    tag: "Service",
    answers: [{ status: 200, description: "Alive.", json: { name: "Live", schema: liveAnswerSchema } }],
  },
});
