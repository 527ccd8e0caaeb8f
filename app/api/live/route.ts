import { otherMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/live — liveness: answers without touching anything (the benchmark's baseline).
export const GET = route({ auth: "none", answer: { status: 200 } }, async () => ({ ok: true }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
