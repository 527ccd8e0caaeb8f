import { operation } from "../operation";

// Any method on /api/<a path no other route serves> — the JSON 404 of every other API answer
// instead of the pages' HTML one.
export const unknownApiPathOperation = operation({
  method: "GET",
  route: "/api/[...path]",
  auth: "none",
  answer: { status: 404 },
  errors: ["malformed_path", "not_found"],
  database: false,
  doc: {
    operationId: "unknownApiPath",
    summary: "Any other /api path",
    description:
      "Any method on an /api path that names no operation answers a JSON 404 (the pages' 404 is HTML). A path that exists answers 405 `method_not_allowed`, with `Allow`, for a method it does not take. Any /api path with a percent-escape that is not valid UTF-8 answers 400 `malformed_path`.",
    tag: "Service",
    paramDescriptions: { path: "Anything no operation above serves." },
    answers: [],
  },
});
