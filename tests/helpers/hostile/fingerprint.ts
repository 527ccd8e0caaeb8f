import { createHash } from "node:crypto";
import { db } from "@/lib/database/db";
import { pollClocks, rateLimitCounters } from "../api";


// A fingerprint of the whole database, to show that a refused request wrote nothing.

// ---------------------------------------------------------------------------------------------
// Database fingerprint: row count and SHA-256 of every row of every table, in key order.
// ---------------------------------------------------------------------------------------------
function digest(rows: unknown[]): string {
  const json = JSON.stringify(rows, (_key, value: unknown) => (typeof value === "bigint" ? `${value}n` : value));
  return `${rows.length} rows, sha256 ${createHash("sha256").update(json).digest("base64url").slice(0, 22)}`;
}

export type Fingerprint = Record<string, string>;

export async function databaseFingerprint(): Promise<Fingerprint> {
  const prisma = await db();
  const [init, initPollClock, user, session, project, projectKey, projectLink, accessToken, signingKey, rateLimit, linkApproval, projectAlias] = await Promise.all([
    prisma.init.findMany({ orderBy: { id: "asc" } }),
    pollClocks(),
    prisma.user.findMany({ orderBy: { id: "asc" } }),
    prisma.session.findMany({ orderBy: { id: "asc" } }),
    prisma.project.findMany({ orderBy: { id: "asc" } }),
    prisma.projectKey.findMany({ orderBy: { projectId: "asc" } }),
    prisma.projectLink.findMany({ orderBy: { id: "asc" } }),
    prisma.accessToken.findMany({ orderBy: { id: "asc" } }),
    prisma.signingKey.findMany({ orderBy: { kid: "asc" } }),
    rateLimitCounters(),
    prisma.linkApproval.findMany({ orderBy: { id: "asc" } }),
    prisma.projectAlias.findMany({ orderBy: { id: "asc" } }),
  ]);
  return {
    Init: digest(init),
    InitPollClock: digest(initPollClock),
    User: digest(user),
    Session: digest(session),
    Project: digest(project),
    ProjectKey: digest(projectKey),
    ProjectLink: digest(projectLink),
    AccessToken: digest(accessToken),
    SigningKey: digest(signingKey),
    RateLimit: digest(rateLimit),
    LinkApproval: digest(linkApproval),
    ProjectAlias: digest(projectAlias),
  };
}

/** The tables whose fingerprints differ, leaving out `ignored`. */
export function changedTables(before: Fingerprint, after: Fingerprint, ignored: readonly string[] = []): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => !ignored.includes(table) && before[table] !== after[table]);
}
