import { ApiError } from "../errors";
import { route } from "./route";

// An /api path that names no operation (app/api/[...path]/route.ts, for every method): the JSON
// 404 of every other API answer instead of the pages' HTML one (issue 14).
export const noSuchApiRoute = route({ auth: "none", answer: { status: 404 } }, async () => {
  throw new ApiError("not_found", "No API operation at this path.");
});
