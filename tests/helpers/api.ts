import { db } from "@/lib/database/db";
import { counterTable, directSql } from "@/lib/database/direct-sql";
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

/** Every poll clock, or those of one init: (initId, poller, lastPolledAt) in key order. */
export async function pollClocks(initId?: string): Promise<{ initId: string; poller: string; lastPolledAt: number }[]> {
  const sql = await directSql();
  const rows = await sql.all<{ initId: string; poller: string; lastPolledAt: number | string }>(
    `SELECT "initId", "poller", "lastPolledAt" FROM ${counterTable("InitPollClock")} ORDER BY "initId", "poller"`,
    [],
  );
  return rows.filter((row) => initId === undefined || row.initId === initId).map((row) => ({ ...row, lastPolledAt: Number(row.lastPolledAt) }));
}

export type RateLimitCounter = { key: string; window: bigint; count: number };

/** Every rate-limit counter, or those whose key starts with `prefix`, in key order. */
export async function rateLimitCounters(prefix = ""): Promise<RateLimitCounter[]> {
  const sql = await directSql();
  const rows = await sql.all<{ key: string; window: number | string; count: number | string }>(`SELECT "key", "window", "count" FROM ${counterTable("RateLimit")}`, []);
  return rows
    .filter((row) => row.key.startsWith(prefix))
    .map((row) => ({ key: row.key, window: BigInt(row.window), count: Number(row.count) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The counter of `key`, null without one. */
export const rateLimitCounter = async (key: string): Promise<RateLimitCounter | null> => (await rateLimitCounters(key)).find((row) => row.key === key) ?? null;

/** Moves the counter of `key` to another window, as if time had passed. */
export async function setRateLimitWindow(key: string, window: bigint): Promise<void> {
  const sql = await directSql();
  await sql.run(`UPDATE ${counterTable("RateLimit")} SET "window" = ? WHERE "key" = ?`, [Number(window), key]);
}

/** Everything the database holds, to show that a rejected request wrote nothing. */
export async function databaseSnapshot() {
  const prisma = await db();
  return { inits: await prisma.init.findMany({ orderBy: { id: "asc" } }), polls: await pollClocks() };
}
