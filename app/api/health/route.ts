import { checkHealth } from "@/lib/health";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/health — readiness for load balancers and orchestrators: 200 when the database
// answers, 503 when it does not. /api/live is liveness (the process answers at all).
export const GET = route({ auth: "none", answer: { status: 200 } }, () => checkHealth());

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
