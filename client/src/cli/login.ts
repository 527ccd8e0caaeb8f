import { hostname, release } from "node:os";
import QRCode from "qrcode";
import type { InitlinkClient } from "../index.js";
import { configDirectory, credentialsFile, readCredentials, writeCredentials } from "./credentials.js";
import { ExitCode } from "./exit-codes.js";
import { openInBrowser } from "./open-browser.js";
import { waitDisplay } from "./waiting.js";

export const SENDER = "@initlink/cli";

export type LoginOptions = { open: boolean; device: string | undefined; signal: AbortSignal };

/** The QR code of `url`: coloured blocks on a terminal (dark themes too), plain Unicode blocks in a log. */
function qrCode(url: string, terminal: boolean): Promise<string> {
  return terminal ? QRCode.toString(url, { type: "terminal", small: true }) : QRCode.toString(url, { type: "utf8" });
}

/** `initlink login <server>`: asks a person to approve this device and stores the access token they grant. */
export async function login(client: InitlinkClient, { open, device, signal }: LoginOptions): Promise<ExitCode> {
  const out = process.stdout;
  const init = await client.createInit(
    { sender: SENDER, sender_device: device ?? hostname(), sender_os: `${process.platform} ${release()}`, user_code_shown: true },
    { signal },
  );
  out.write(`Open this link to approve this device:\n\n  ${init.redirect_url}\n\n`);
  out.write(`and type this code when the page asks for it:\n\n  ${init.user_code}\n\n`);
  out.write(`${await qrCode(init.redirect_url, out.isTTY === true)}\n`);
  if (open) {
    const opened = await openInBrowser(init.redirect_url);
    out.write(opened ? "Opened the link in your browser.\n" : "Could not open a browser: open the link above yourself.\n");
  }

  const display = waitDisplay(out, init.expires_at - init.timestamp);
  const outcome = await client.waitForOutcome(init, { signal, onProgress: display.update }).finally(display.stop);
  switch (outcome.status) {
    case "denied":
      process.stderr.write("Denied: the request was denied in the browser. Nothing was stored.\n");
      return ExitCode.denied;
    case "expired":
      process.stderr.write(`Expired: nobody approved the request in time. Run the login again for a new link.\n`);
      return ExitCode.expired;
    case "done": {
      const token = await client.collectToken(init, outcome, { signal });
      const directory = configDirectory();
      const credentials = await readCredentials(directory);
      const server = client.server.href;
      credentials.servers[server] = { server, ...token, stored_at: Date.now(), links: {} };
      credentials.current = server;
      await writeCredentials(directory, credentials);
      const approver = token.approved_by === null ? "" : ` by ${token.approved_by.email}`;
      out.write(`Approved${approver} for the project "${token.project.name}" (${token.project.id}).\n`);
      out.write(`The access token is stored in ${credentialsFile(directory)}.\n`);
      out.write("Next: `initlink link` links this device to the project and shows its key's fingerprint.\n");
      return ExitCode.ok;
    }
  }
}
