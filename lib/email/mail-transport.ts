import nodemailer, { type Transporter } from "nodemailer";
import type { Config } from "../config";
import { processWide } from "../process-wide";

// Sends one message through SMTP_URL with nodemailer (the well-kept sender: STARTTLS, smtps,
// authentication and the message's encoding are its own). One transport per process, made on
// first use; the outbox (lib/email/outbox.ts) is its only caller, never a request.

export type MailMessage = { to: string; subject: string; text: string };

// Bounds on a mail server that hangs, so that one slow server cannot hold a sender forever.
const CONNECTION_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 30_000;

const transports = processWide("mail-transports", () => new Map<string, Transporter>());

function transporterFor(url: string): Transporter {
  let transporter = transports.get(url);
  if (transporter === undefined) {
    transporter = nodemailer.createTransport({ url, connectionTimeout: CONNECTION_TIMEOUT_MS, greetingTimeout: CONNECTION_TIMEOUT_MS, socketTimeout: SOCKET_TIMEOUT_MS });
    transports.set(url, transporter);
  }
  return transporter;
}

/** Hands `message` to the mail server; throws its refusal or the network's reason. */
export async function sendMail(email: NonNullable<Config["email"]>, message: MailMessage): Promise<void> {
  await transporterFor(email.smtpUrl).sendMail({ from: email.from, to: message.to, subject: message.subject, text: message.text });
}

/** Why a message was not sent, for the outbox's row and the log: the error's code and message, never the URL's credentials. */
export function sendFailure(error: unknown, email: NonNullable<Config["email"]>): string {
  const code = typeof error === "object" && error !== null && "code" in error && typeof error.code === "string" ? `${error.code}: ` : "";
  const message = error instanceof Error ? error.message : String(error);
  const password = new URL(email.smtpUrl).password;
  let said = message;
  for (const secret of [password, decodedOrAsIs(password)]) if (secret !== "") said = said.split(secret).join("***");
  return `${code}${said}`.slice(0, 500);
}

/** A URL's percent-encoded part decoded, or as it is where its escapes are not valid UTF-8. */
function decodedOrAsIs(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
