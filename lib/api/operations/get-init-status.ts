import { initIdParamsSchema, initStatusAnswerSchema } from "../../init/schemas";
import { operation } from "../operation";
import { WAIT_CAP_SECONDS } from "../prefer";

// GET /api/init/{id} — the init's status, polled by the client (with its secret, to collect the
// access token) and by the init page; `Prefer: wait=<seconds>` holds it until the status changes
export const getInitStatusOperation = operation({
  method: "GET",
  route: "/api/init/[id]",
  auth: "initSecret",
  dpop: true,
  params: initIdParamsSchema,
  wait: true,
  answer: { status: 200 },
  errors: ["malformed_path", "invalid_secret", "invalid_dpop_proof", "use_dpop_nonce", "not_found", "slow_down", "rate_limited", "duplicate_session_cookie", "internal_error"],
  doc: {
    operationId: "getInitStatus",
    summary: "Init status (and the access token pickup)",
    description:
      "Poll at most every `interval` ms (else 429 `slow_down`). Anyone may read the status; the client that sends the init's secret as `Authorization: Bearer <secret>` also gets, once done, the project, the approver and, exactly once, an access token for the project. `Prefer: wait=<seconds>` holds a pending answer until the status changes (see `Preference-Applied`).",
    tag: "Init",
    paramDescriptions: { id: "The init's id (Create Init's `id`)." },
    requestHeaders: {
      Prefer: {
        description: `RFC 7240 \`wait=<seconds>\`: hold a pending init's answer until its status changes, at most ${WAIT_CAP_SECONDS} s (and never past its expiry).`,
        schema: { type: "string" },
        example: "wait=30",
      },
    },
    answers: [
      {
        status: 200,
        description: "The init's status: `pending`, `done`, `denied` or `expired`.",
        json: { name: "InitStatus", schema: initStatusAnswerSchema },
        headers: {
          "Preference-Applied": {
            description:
              "With `Prefer: wait`: the wait applied, capped (`wait=<seconds>`). Absent when the server already holds as many waiting requests as it may (`WAITING_PER_PROCESS`) and answered at once, as a plain poll: poll at `interval`.",
            schema: { type: "string" },
            example: "wait=30",
          },
        },
      },
    ],
  },
});
