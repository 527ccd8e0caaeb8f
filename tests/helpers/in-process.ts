import { resolve } from "node:path";
import { publicPath } from "@/lib/api/operation";
import { OPERATIONS } from "@/lib/api/operations";
import type { RouteHandler } from "@/lib/api/route";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import type { Answer, Send } from "./journey.mjs";

// The service in this process: a path leads to its real route handler, called with a real
// Request the way server.mjs hands one to Next, the TCP peer's address in its header. The peer
// is loopback unless a test stands for a client elsewhere and names its address in that header.
// The routes are the declared operations (lib/api/operations/), each served by the handler its
// route file exports for its method; a GET's route answers HEAD too, as Next does.

type Route = { method: string; segments: string[]; file: string; exported: string };

const ROUTES: Route[] = OPERATIONS.filter((operation) => !operation.route.includes("[...")).flatMap((operation) => {
  // Clients call the public path (server.mjs maps an alias to its route).
  const route = { segments: publicPath(operation).replace(/\{(\w+)\}/g, "[$1]").split("/"), file: resolve(`app${operation.route}/route.ts`), exported: operation.method };
  return operation.method === "GET" ? [{ method: "GET", ...route }, { method: "HEAD", ...route }] : [{ method: operation.method, ...route }];
});

async function handlerOf(route: Route): Promise<RouteHandler> {
  const module = (await import(route.file)) as Record<string, RouteHandler>;
  return module[route.exported];
}

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
    const handle = await handlerOf(candidate);
    return handle(new Request(`http://localhost:3000${path}`, init), { params: Promise.resolve(params) });
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
