import { GET as health } from "@/app/api/health/route";
import { GET as initEvents } from "@/app/api/init/[id]/events/route";
import { GET as initStatus } from "@/app/api/init/[id]/route";
import { POST as createInit } from "@/app/api/init/route";
import { GET as live } from "@/app/api/live/route";
import { POST as createLink } from "@/app/api/projects/[projectId]/link/[iv]/route";
import { GET as linkedProject } from "@/app/api/projects/[projectId]/route";
import { GET as jwks } from "@/app/api/well-known/jwks/route";
import { POST as signIn } from "@/app/auth/signin/route";
import { POST as signOut } from "@/app/auth/signout/route";
import { POST as signUp } from "@/app/auth/signup/route";
import { POST as approve } from "@/app/init/[id]/approve/route";
import { POST as deny } from "@/app/init/[id]/deny/route";
import { POST as approveLink } from "@/app/projects/[id]/link/[iv]/approve/route";
import { POST as denyLink } from "@/app/projects/[id]/link/[iv]/deny/route";
import { POST as revokeLink } from "@/app/projects/[id]/links/[linkId]/revoke/route";
import { POST as revokeToken } from "@/app/settings/tokens/[id]/revoke/route";
import { POST as createToken } from "@/app/settings/tokens/create/route";
import { PEER_ADDRESS_HEADER } from "@/lib/runtime/request-context.mjs";
import type { Answer, Send } from "./journey.mjs";

// The service in this process: a path leads to its real route handler, called with a real
// Request the way server.mjs hands one to Next, the TCP peer's address in its header. The peer
// is loopback unless a test stands for a client elsewhere and names its address in that header.

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Response | Promise<Response>;
type Route = { method: string; segments: string[]; handle: (request: Request, params: Record<string, string>) => Response | Promise<Response> };

function route<P>(method: string, pattern: string, handler: Handler<P>): Route {
  // The params are named by the pattern's [segments], which are the handler's own.
  return { method, segments: pattern.split("/"), handle: (request, params) => handler(request, { params: Promise.resolve(params as P) }) };
}

const ROUTES = [
  route("POST", "/api/init", createInit),
  route("GET", "/api/init/[id]", initStatus),
  route("GET", "/api/init/[id]/events", initEvents),
  // Next answers HEAD with the GET handler of a route that exports no HEAD.
  route("HEAD", "/api/init/[id]/events", initEvents),
  route("POST", "/api/projects/[projectId]/link/[iv]", createLink),
  route("GET", "/api/projects/[projectId]", linkedProject),
  // server.mjs maps the well-known address to app/api/well-known/jwks (lib/runtime/path-aliases.mjs).
  route("GET", "/.well-known/jwks.json", jwks),
  route("GET", "/api/health", health),
  route("GET", "/api/live", live),
  route("POST", "/auth/signup", signUp),
  route("POST", "/auth/signin", signIn),
  route("POST", "/auth/signout", signOut),
  route("POST", "/init/[id]/approve", approve),
  route("POST", "/init/[id]/deny", deny),
  route("POST", "/settings/tokens/create", createToken),
  route("POST", "/settings/tokens/[id]/revoke", revokeToken),
  route("POST", "/projects/[id]/links/[linkId]/revoke", revokeLink),
  route("POST", "/projects/[id]/link/[iv]/approve", approveLink),
  route("POST", "/projects/[id]/link/[iv]/deny", denyLink),
];

/** The params of `route` for a path's segments (each decoded, as Next does), or null when it is another route's path. */
function paramsOf(route: Route, method: string, segments: string[]): Record<string, string> | null {
  if (route.method !== method || route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of route.segments.entries()) {
    const name = /^\[(\w+)\]$/.exec(part)?.[1];
    if (name !== undefined) params[name] = decodeURIComponent(segments[index]);
    else if (part !== segments[index]) return null;
  }
  return params;
}

/** `signal` stands for the client going away (Next aborts the request's signal when its connection closes). */
export type Dispatched = { body?: BodyInit | null; headers?: Record<string, string>; signal?: AbortSignal };

/** Sends `method path` (path segments encoded, a query allowed) to its route handler. */
export async function dispatch(method: string, path: string, { body = null, headers = {}, signal }: Dispatched = {}): Promise<Response> {
  const segments = path.split("?")[0].split("/");
  for (const candidate of ROUTES) {
    const params = paramsOf(candidate, method, segments);
    if (params === null) continue;
    // duplex: a streamed body needs it, and the DOM's RequestInit does not know it yet.
    const init = { method, body, headers: { [PEER_ADDRESS_HEADER]: "127.0.0.1", ...headers }, duplex: "half", signal } as RequestInit;
    return candidate.handle(new Request(`http://localhost:3000${path}`, init), params);
  }
  throw new Error(`no route for ${method} ${path}`);
}

/** An answer as the journey reads it; Set-Cookie values stay apart, one a line. */
async function answerOf(response: Response): Promise<Answer> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name in headers ? `${headers[name]}\n${value}` : value;
  });
  return { status: response.status, headers, text: await response.text() };
}

/** The journey's transport in this process. */
export const inProcess: Send = async (method, path, body, headers) => answerOf(await dispatch(method, path, { body, headers }));
