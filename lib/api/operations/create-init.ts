import type { CreatedInit } from "../../init/create-init";
import { createdInitSchema, createInitBodySchema } from "../../init/schemas";
import { operation } from "../operation";

// POST /api/init — Create Init (SPEC §4.1)
export const createInitOperation = operation({
  method: "POST",
  route: "/api/init",
  auth: "none",
  dpop: true,
  body: { json: createInitBodySchema },
  answer: { status: 201, headers: (init: CreatedInit) => ({ Location: init.url }) },
  errors: ["invalid_request", "invalid_json", "payload_too_large", "unsupported_media_type", "rate_limited", "internal_error"],
  doc: {
    operationId: "createInit",
    summary: "Create Init",
    description:
      "A client (a CLI) names itself and gets the status resource to poll (`url`), the page to send the person to (`redirect_url`), the code to print (`user_code`) and a one-time `secret` that only it knows. With `user_code_shown: true` the page asks the person to type the code.",
    tag: "Init",
    bodyExample: { sender: "@acme/cli", sender_device: "laptop", sender_os: "Linux", sender_ip: "203.0.113.7", user_code_shown: true },
    answers: [
      {
        status: 201,
        description: "The init, pending. `Location` is its status resource.",
        json: { name: "CreatedInit", schema: createdInitSchema },
        headers: { Location: { description: "The init's status resource (`url`).", schema: { type: "string" }, example: "https://initlink.example/api/init/Q2hvb3NlQVJhbmRvbUlkMQ" } },
      },
    ],
  },
});
