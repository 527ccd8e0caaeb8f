import { apiRoute } from "@/lib/http/handler";
import { jsonResponse } from "@/lib/http/response";
import { checkHealth } from "@/lib/health";

// GET /api/health — readiness for load balancers and orchestrators: 200 when the database
// answers, 503 when it does not. /api/live is liveness (the process answers at all).
export const GET = apiRoute(async () => jsonResponse(200, await checkHealth()));
