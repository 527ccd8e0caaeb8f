import { ERRORS, oauthError, type ErrorCode } from "@/lib/errors";
import { publicPath, type Method, type Operation } from "@/lib/api/operation";
import { OPERATIONS } from "@/lib/api/operations";


// What each route may answer, from its declaration (lib/api/operations/).

// ---------------------------------------------------------------------------------------------
// What each route may answer: its declaration's success statuses and error codes
// (lib/api/operations/), grouped by each code's status (lib/errors.ts). A status missing there is
// undocumented. No 5xx anywhere (500 internal_error is a bug): GET /api/health's documented 503
// needs a database that does not answer, and the database answers in these tests. The suite
// runs with vitest.config.ts's high limits, so 429 rate_limited is allowed where documented but
// not expected.
// ---------------------------------------------------------------------------------------------

/** A route as the hostile tables name it: `METHOD /its/{public}/path`. */
export type RouteName = `${Method} /${string}`;

/** The declared operation named `route`. */
export function operationNamed(route: RouteName): Operation {
  const found = OPERATIONS.find((operation) => `${operation.method} ${publicPath(operation)}` === route);
  if (found === undefined) throw new Error(`no operation is declared as ${route}`);
  return found;
}

/** The route answers errors in OAuth's dialect (`{error, error_description}`, RFC 6749 §5.2). */
export const speaksOAuth = (route: RouteName) => operationNamed(route).dialect === "oauth";

/** Each status `route` may answer, with the codes it may carry as they appear on the wire (none for a success). */
export function documentedAnswers(route: RouteName): Record<number, readonly string[]> {
  const operation = operationNamed(route);
  const answers: Record<number, string[]> = {};
  if ("status" in operation.answer) answers[operation.answer.status] = [];
  for (const answer of operation.doc?.answers ?? []) answers[answer.status] = [];
  for (const code of operation.errors) {
    const { status, error } = operation.dialect === "oauth" ? oauthError(code) : { status: ERRORS[code].status, error: code as ErrorCode };
    if (status < 500) answers[status] = [...(answers[status] ?? []), error];
  }
  return answers;
}
