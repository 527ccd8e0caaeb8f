import { db } from "@/lib/database/db";
import { dispatch, inProcess } from "./in-process";
import { approvedClient as approvedClientJourney, createLink as createLinkStep, newEmail, randomIv } from "./journey.mjs";
import { SITE } from "./forms";

// Create Project Link and the link bearer's project resource, through the real route handlers.

export { randomIv };

const CLIENT = { "user-agent": "acme-cli/2.0" };

export function createLink(projectId: string, iv: string, headers: Record<string, string>, body: BodyInit | null = null) {
  return dispatch("POST", `/api/projects/${encodeURIComponent(projectId)}/link/${encodeURIComponent(iv)}`, { body, headers: { ...CLIENT, ...headers } });
}

export const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

export function getProject(projectId: string, headers: Record<string, string>) {
  return dispatch("GET", `/api/projects/${encodeURIComponent(projectId)}`, { headers: { ...CLIENT, ...headers } });
}

export async function publishedJwks() {
  const response = await dispatch("GET", "/.well-known/jwks.json");
  return (await response.json()) as { keys: Record<string, string>[] };
}

/** A link that must succeed; its JWT without the "Bearer " prefix. */
export async function linked(projectId: string, accessToken: string, iv = randomIv()) {
  const link = await createLinkStep(inProcess, projectId, accessToken, { iv, headers: CLIENT });
  return { ...link, jwt: link.bearer.slice("Bearer ".length) };
}

/**
 * The whole hand-over (tests/helpers/journey.mjs): a person signs up, approves a client's init
 * into a new project, and the client collects its access token with the init's secret.
 */
export async function approvedClient(name = "My app") {
  const client = await approvedClientJourney(inProcess, {
    site: SITE,
    email: newEmail("person"),
    name,
    init: { sender: "@acme/cli", sender_device: "laptop" },
    client: { "user-agent": "acme-cli/1.0" },
  });
  const prisma = await db();
  const user = await prisma.user.findUniqueOrThrow({ where: { email: client.email } });
  return { session: client.session, userId: user.id, projectId: client.projectId, accessToken: client.accessToken };
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
