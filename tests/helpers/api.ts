import { POST as createInitRoute } from "@/app/api/init/route";
import { GET as initStatusRoute } from "@/app/api/init/[id]/route";
import { db } from "@/lib/db";

// Calls the real route handlers with real Requests, as server.mjs hands them over: the TCP
// peer's address in x-initlink-peer.

export const CLI_HEADERS = { "x-initlink-peer": "127.0.0.1", "user-agent": "acme-cli/1.0" };

export function createInit(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  const request = new Request("http://localhost:3000/api/init", {
    method: "POST",
    body,
    headers: { ...CLI_HEADERS, ...headers },
    duplex: "half",
  } as RequestInit);
  return createInitRoute(request, { params: Promise.resolve({}) });
}

export function createInitJson(body: unknown, headers: Record<string, string> = {}) {
  return createInit(JSON.stringify(body), { "content-type": "application/json", ...headers });
}

export async function createdInit(body: unknown = { sender: "@acme/cli" }) {
  const response = await createInitJson(body);
  if (response.status !== 201) throw new Error(`Create Init answered ${response.status}`);
  return (await response.json()) as { id: string; url: string; redirect_url: string; interval: number; timestamp: number; user_code: string; expires_at: number; secret: string };
}

export function getInitStatus(id: string, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost:3000/api/init/${encodeURIComponent(id)}`, { headers: { ...CLI_HEADERS, ...headers } });
  return initStatusRoute(request, { params: Promise.resolve({ id }) });
}

/** Everything the database holds, to show that a rejected request wrote nothing. */
export async function databaseSnapshot() {
  const prisma = await db();
  return { inits: await prisma.init.findMany({ orderBy: { id: "asc" } }), polls: await prisma.initPoll.findMany({ orderBy: { initId: "asc" } }) };
}
