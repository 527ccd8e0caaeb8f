import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "@/lib/config";
import { deliverDueEmails } from "@/lib/email/outbox";
import { startTestSmtpServer, type TestMailbox } from "../../helpers/smtp";
import { person, settingsToken } from "../../helpers/teams";
import { ahead, deliverAll, endpointFor, startReceiver } from "../../helpers/webhooks";
import { SITE } from "../../helpers/forms";

// An endpoint disabled after failing for its whole retry schedule tells the person who made it,
// by mail through a real SMTP server (smtp-server, started here), once.

let mailbox: TestMailbox;

beforeAll(async () => {
  mailbox = await startTestSmtpServer();
  // Read once, at the first request (lib/config.ts): set before any. One retry a second after the first attempt.
  Object.assign(process.env, { SMTP_URL: mailbox.url, EMAIL_FROM: "initlink <login@initlink.test>", OUTBOUND_ALLOW_PRIVATE: "true", WEBHOOK_RETRY_SCHEDULE: "1s" });
});

afterAll(async () => {
  await mailbox.close();
});

describe("a webhook endpoint disabled after failing", () => {
  it("mails the person who made it, naming the endpoint and where its log is", async () => {
    const receiver = await startReceiver();
    const owner = await person();
    await endpointFor(owner, receiver, ["access_token.created"]);
    await receiver.down();
    await settingsToken(owner, "all");
    // The first attempt, then the retry a second (±20 %) later: the schedule is spent.
    expect(await deliverAll()).toMatchObject({ delivered: 0, retried: 1 });
    expect(await deliverAll(ahead(1500))).toMatchObject({ delivered: 0, failed: 1 });
    expect(await deliverDueEmails(config())).toMatchObject({ sent: 1 });
    const mail = await mailbox.next(owner.email, "webhook endpoint was disabled");
    // Named by its origin: a receiver's path may hold a token of its own.
    expect(mail.text).toContain(new URL(receiver.url).origin);
    expect(mail.text).not.toContain(receiver.url);
    expect(mail.text).toContain(`${SITE}/webhooks`);
    expect(await deliverDueEmails(config())).toMatchObject({ sent: 0 });
  });
});
