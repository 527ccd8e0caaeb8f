import { initIdParamsSchema } from "../../init/schemas";
import { operation } from "../operation";

// GET /api/init/{id}/events — the init's status as Server-Sent Events, for the init page

const statusEvent = (status: string, extra = "") =>
  `id: ${status}\ndata: {"id":"Q2hvb3NlQVJhbmRvbUlkMQ","status":"${status}","timestamp":1764000005000,"interval":5000,"expires_at":1764000900000${extra}}\n\n`;

export const streamInitEventsOperation = operation({
  method: "GET",
  route: "/api/init/[id]/events",
  auth: "none",
  params: initIdParamsSchema,
  answer: { stream: true },
  errors: ["malformed_path", "not_found", "rate_limited", "internal_error", "server_busy"],
  doc: {
    operationId: "streamInitEvents",
    summary: "Init status as Server-Sent Events",
    description:
      "One event per status, each the status answer an anonymous poller gets, with the status as its `id`: `pending` first, then the final one, after which the stream closes. A reconnect with `Last-Event-ID` never repeats an event; one after the final event gets 204, which stops an EventSource. A comment line every 15 s keeps the connection open. A stream ends after 5 minutes whatever the status: reconnect with `Last-Event-ID`. At most 16 streams per init, and a tenth of a process's waiting room per address (IPv6: its /64), else 429.",
    tag: "Init",
    paramDescriptions: { id: "The init's id." },
    requestHeaders: {
      "Last-Event-ID": { description: "The last event's id (a status) a reconnecting EventSource saw.", schema: { type: "string" }, example: "pending" },
    },
    answers: [
      {
        status: 200,
        description: "The event stream.",
        eventStream: {
          description: "`retry: <interval>` first, then one event per status; `data` is the InitStatus answer (without the pickup's fields).",
          example: `retry: 5000\n\n${statusEvent("pending")}${statusEvent("done", ',"project_id":"UHJvamVjdElkRXhhbXBsZQ","project_url":"https://initlink.example/projects/UHJvamVjdElkRXhhbXBsZQ"')}`,
        },
      },
      { status: 204, description: "The client has already seen the final event (`Last-Event-ID` is `done`, `denied` or `expired`)." },
    ],
  },
});
