import { randomBytes } from "node:crypto";
import { POST as linkRoute } from "@/app/api/projects/[projectId]/link/[iv]/route";
import { GET as projectRoute } from "@/app/api/projects/[projectId]/route";
import { GET as jwksRoute } from "@/app/api/well-known/jwks/route";
import { db } from "@/lib/db";
import { createdInit, getInitStatus } from "./api";
import { approve, newAccount } from "./forms";

// Create Project Link and the link bearer's project resource, through the real route handlers.

export const randomIv = () => randomBytes(16).toString("hex");

const CLIENT = { "x-initlink-peer": "127.0.0.1", "user-agent": "acme-cli/2.0" };

export function createLink(projectId: string, iv: string, headers: Record<string, string>, body: BodyInit | null = null) {
  const request = new Request(`http://localhost:3000/api/projects/${encodeURIComponent(projectId)}/link/${encodeURIComponent(iv)}`, {
    method: "POST",
    headers: { ...CLIENT, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return linkRoute(request, { params: Promise.resolve({ projectId, iv }) });
}

export const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

export function getProject(projectId: string, headers: Record<string, string>) {
  const request = new Request(`http://localhost:3000/api/projects/${encodeURIComponent(projectId)}`, { headers: { ...CLIENT, ...headers } });
  return projectRoute(request, { params: Promise.resolve({ projectId }) });
}

export async function publishedJwks() {
  const response = await jwksRoute(new Request("http://localhost:3000/.well-known/jwks.json"), { params: Promise.resolve({}) });
  return (await response.json()) as { keys: Record<string, string>[] };
}

export type LinkSuccess = { success: true; bearer: string; public: string; public_fingerprint: string; link_id: string; expires_at: number };

/** A link that must succeed; its JWT without the "Bearer " prefix. */
export async function linked(projectId: string, accessToken: string, iv = randomIv()) {
  const response = await createLink(projectId, iv, withToken(accessToken));
  if (response.status !== 200) throw new Error(`Create Project Link answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as LinkSuccess;
  return { ...body, iv, jwt: body.bearer.slice("Bearer ".length) };
}

/**
 * The whole hand-over: a person signs up, approves a client's init into a new project, and the
 * client collects its access token with the init's secret.
 */
export async function approvedClient(name = "My app") {
  const account = await newAccount();
  const init = await createdInit({ sender: "@acme/cli", sender_device: "laptop" });
  const approval = await approve(init.id, account.token, { project: "new", name, code_confirmed: "yes" });
  if (approval.status !== 303 || approval.headers.get("location")?.includes("error")) throw new Error(`approval failed: ${approval.headers.get("location")}`);
  const status = await (await getInitStatus(init.id, { authorization: `Bearer ${init.secret}` })).json();
  if (typeof status.access_token !== "string") throw new Error(`no access token: ${JSON.stringify(status)}`);
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { email: account.email } });
  return { session: account.token, userId: user.id, projectId: init.id, accessToken: status.access_token as string };
}

/** Every row that Create Project Link or a bearer could change, to prove a rejection wrote nothing. */
export async function linkSnapshot() {
  const prisma = await db();
  return {
    links: await prisma.projectLink.findMany({ orderBy: { id: "asc" } }),
    tokens: await prisma.accessToken.findMany({ orderBy: { id: "asc" } }),
    projects: await prisma.project.findMany({ orderBy: { id: "asc" } }),
  };
}
