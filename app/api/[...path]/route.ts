import { notFound } from "@/lib/errors";
import { unknownApiPathOperation } from "@/lib/api/operations/unknown-api-path";
import { route } from "@/lib/api/route";

// Every method: no operation lives at this path.
const noSuchApiRoute = route(unknownApiPathOperation, async () => {
  throw notFound("No API operation at this path.");
});

export const GET = noSuchApiRoute;
export const HEAD = noSuchApiRoute;
export const POST = noSuchApiRoute;
export const PUT = noSuchApiRoute;
export const PATCH = noSuchApiRoute;
export const DELETE = noSuchApiRoute;
export const OPTIONS = noSuchApiRoute;
