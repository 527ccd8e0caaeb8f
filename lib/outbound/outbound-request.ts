import { lookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

// Requests the service makes to an address a person chose (a webhook endpoint's URL). Such a URL
// must not reach the service's own network (server-side request forgery, OWASP SSRF prevention):
// its host is resolved before each request, every address it resolves to must be public
// (ipaddr.js's "unicast": no private, loopback, link-local, carrier-grade NAT, documentation,
// 6to4, Teredo or NAT64 range, and IPv4-mapped IPv6 read as the IPv4 it maps), and the connection
// goes to the address that was checked, so a second DNS answer cannot swap in another (DNS
// rebinding). Redirects are not followed, and the time and the answer's size are bounded.

export type OutboundPolicy = {
  /** OUTBOUND_ALLOW_PRIVATE=true: any address, and plain http (tests, private deployments). */
  allowPrivate: boolean;
  /** A loopback host, over http too (npm run dev). */
  allowLoopback: boolean;
};

/** Why a URL may not be requested: the reason is shown to the person who chose it. */
export class OutboundRefusal extends Error {
  constructor(
    readonly code: "outbound_url_invalid" | "outbound_address_refused",
    message: string,
  ) {
    super(message);
  }
}

/** Why a request failed without an answer: a short reason for the delivery log, never a stack. */
export class OutboundFailure extends Error {}

export type OutboundAnswer = { status: number; body: string };

const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const isLoopbackHost = (hostname: string) => hostname === "localhost" || hostname.endsWith(".localhost") || isLoopbackAddress(hostname.replace(/^\[|\]$/g, ""));

function isLoopbackAddress(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === "loopback";
}

// ipaddr.js calls every IPv6 address it has no range for "unicast": ::/96 among them, whose
// IPv4-compatible addresses ([::127.0.0.1] is ::7f00:1) embed an IPv4 address unchecked. Only
// 2000::/3 is allocated for global unicast.
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");

/** Whether anyone on the internet may hold `address` (IPv4 or IPv6 text). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  if (parsed.range() !== "unicast") return false;
  return parsed.kind() === "ipv4" || (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

/** The URL, if the policy lets the service request it at all: https (http only where private addresses are allowed), no credentials. */
export function checkOutboundUrl(text: string, policy: OutboundPolicy): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundRefusal("outbound_url_invalid", "must be an absolute URL, such as https://api.example.com/webhooks");
  }
  const plainAllowed = policy.allowPrivate || (policy.allowLoopback && isLoopbackHost(url.hostname));
  if (url.protocol !== "https:" && !(url.protocol === "http:" && plainAllowed)) {
    throw new OutboundRefusal("outbound_url_invalid", "must be an https:// URL");
  }
  if (url.username !== "" || url.password !== "") throw new OutboundRefusal("outbound_url_invalid", "must not carry a user name or password");
  if (url.hash !== "") throw new OutboundRefusal("outbound_url_invalid", "must not have a #fragment");
  return url;
}

/** The address to connect to for `url`: every address its host has must be allowed, or the request is refused. */
export async function resolveOutbound(url: URL, policy: OutboundPolicy, timeoutMs = 10_000): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: host.includes(":") ? 6 : 4 }];
  } else {
    // dns.lookup has no time limit of its own (and holds a libuv thread while it waits): the attempt does not wait past its own.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new OutboundFailure(`the host ${host} did not resolve within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    try {
      addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), late]);
    } catch (error) {
      throw error instanceof OutboundFailure ? error : new OutboundFailure(`the host ${host} does not resolve`);
    } finally {
      clearTimeout(timer);
    }
  }
  const allowed = (address: string) => policy.allowPrivate || isPublicAddress(address) || (policy.allowLoopback && isLoopbackAddress(address));
  const refused = addresses.find(({ address }) => !allowed(address));
  if (refused !== undefined || addresses.length === 0) {
    // The address itself is not told: the message would map the service's own network for anyone who asks.
    throw new OutboundRefusal("outbound_address_refused", `${host} resolves to a private or special-purpose address, which initlink does not send to`);
  }
  return addresses[0];
}

export type OutboundRequest = {
  url: URL;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** How much of the answer's body is kept; the rest is not read. */
  maxBodyBytes: number;
};

/** POSTs `body` to the checked address of `request.url`; the answer's status and the start of its body, whatever the status. */
export async function postOutbound(request: OutboundRequest, policy: OutboundPolicy): Promise<OutboundAnswer> {
  // Checked again at each request: a URL stored while the policy allowed plain http or a private host is refused once it no longer does.
  checkOutboundUrl(request.url.href, policy);
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const target = await resolveOutbound(request.url, policy, request.timeoutMs);
  // Node asks for every address when it may try several (autoSelectFamily): only the checked one is given.
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = request.url.protocol === "https:" ? https : http;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const req = client.request(
      request.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        signal: deadline,
        headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        // Kept as text a database takes: PostgreSQL refuses NUL in text, and no control character but tab and newline is worth showing.
        const finish = () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8").replace(/\uFFFD+$/, "").replace(CONTROL_CHARACTERS, "\uFFFD") });
        res.on("data", (chunk: Buffer) => {
          if (kept >= request.maxBodyBytes) return;
          const part = chunk.subarray(0, request.maxBodyBytes - kept);
          chunks.push(part);
          kept += part.length;
          // Enough is kept: the rest of a long answer is not waited for.
          if (kept >= request.maxBodyBytes) {
            finish();
            res.destroy();
          }
        });
        res.on("end", finish);
        res.on("error", () => finish());
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => reject(new OutboundFailure(deadline.aborted ? `no answer within ${request.timeoutMs / 1000} s` : describeNetworkError(error))));
    req.end(request.body);
  });
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    default:
      return error.code?.startsWith("ERR_TLS") || error.code?.includes("CERT") ? `TLS: ${error.code}` : (error.code ?? "network error");
  }
}
