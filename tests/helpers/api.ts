import { db } from "@/lib/db";
import { dispatch, inProcess } from "./in-process";
import { createInit as createInitStep } from "./journey.mjs";

// Create Init and the init status, through the real route handlers (tests/helpers/in-process.ts).

const CLI_HEADERS = { "user-agent": "acme-cli/1.0" };

export function createInit(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  return dispatch("POST", "/api/init", { body, headers: { ...CLI_HEADERS, ...headers } });
}

export function createInitJson(body: unknown, headers: Record<string, string> = {}) {
  return createInit(JSON.stringify(body), { "content-type": "application/json", ...headers });
}

export const createdInit = (body: unknown = { sender: "@acme/cli" }) => createInitStep(inProcess, body, CLI_HEADERS);

export function getInitStatus(id: string, headers: Record<string, string> = {}) {
  return dispatch("GET", `/api/init/${encodeURIComponent(id)}`, { headers: { ...CLI_HEADERS, ...headers } });
}

/** Everything the database holds, to show that a rejected request wrote nothing. */
export async function databaseSnapshot() {
  const prisma = await db();
  return { inits: await prisma.init.findMany({ orderBy: { id: "asc" } }), polls: await prisma.initPoll.findMany({ orderBy: { initId: "asc" } }) };
}
