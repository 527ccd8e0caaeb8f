import { noSuchApiRoute } from "@/lib/http/no-such-route";

// Any method on /api/<a path no other route serves> — a JSON 404 (the pages' 404 is HTML)
export const GET = noSuchApiRoute;
export const HEAD = noSuchApiRoute;
export const POST = noSuchApiRoute;
export const PUT = noSuchApiRoute;
export const PATCH = noSuchApiRoute;
export const DELETE = noSuchApiRoute;
export const OPTIONS = noSuchApiRoute;
