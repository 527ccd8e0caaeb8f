import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the mail tests (nodemailer's smtp-server), on a free loopback port,
// with a user and password as a provider's would have: it keeps every message it accepts,
// parsed by mailparser, and can refuse the next ones as a busy server does (451).

export const SMTP_USER = "initlink";
export const SMTP_PASSWORD = "mail-s3cret";

export type TestMailbox = {
  /** `smtp://user:password@127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /** The next message to `to` whose subject contains `subject`, waiting for it up to `timeoutMs`. */
  next(to: string, subject: string, timeoutMs?: number): Promise<ParsedMail>;
  /** Refuses the next `count` messages with a temporary failure. */
  refuseNext(count: number): void;
  close(): Promise<void>;
};

export async function startTestSmtpServer(): Promise<TestMailbox> {
  const messages: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters = new Set<() => void>();
  let refusals = 0;
  const server = new SMTPServer({
    // Plain SMTP on loopback: no certificate to trust, credentials still checked.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, _session, callback) {
      if (refusals > 0) {
        refusals--;
        stream.resume();
        stream.on("end", () => callback(Object.assign(new Error("Try again later"), { responseCode: 451 })));
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  const find = (to: string, subject: string) => messages.find((mail) => !taken.has(mail) && mail.to !== undefined && JSON.stringify(mail.to).includes(to) && (mail.subject ?? "").includes(subject));
  return {
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    messages,
    async next(to, subject, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = find(to, subject);
        if (found !== undefined) {
          taken.add(found);
          return found;
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail "${subject}" to ${to} within ${timeoutMs} ms (${messages.length} received)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    refuseNext(count) {
      refusals = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of a mailed link (`…#token=<token>`) in a message's text. */
export function linkToken(mail: ParsedMail): string {
  const match = /#token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? "");
  if (match === null) throw new Error(`no link in the mail "${mail.subject}"`);
  return match[1];
}
