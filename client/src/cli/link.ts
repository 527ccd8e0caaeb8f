import { type InitlinkClient, isInitlinkError, publicKeyFingerprint } from "../index.js";
import { configDirectory, credentialsFile, readCredentials, writeCredentials } from "./credentials.js";
import { ExitCode } from "./exit-codes.js";

export type LinkOptions = { projectId: string | undefined; signal: AbortSignal };

/**
 * `initlink link [projectId]`: links this device to a project with the stored access token and
 * prints the key's fingerprint, computed here from the key received, for the person to compare
 * with the project page's.
 */
export async function link(client: InitlinkClient, { projectId, signal }: LinkOptions): Promise<ExitCode> {
  const directory = configDirectory();
  const credentials = await readCredentials(directory);
  const server = client.server.href;
  const stored = credentials.servers[server];
  if (stored === undefined) {
    process.stderr.write(`Not logged in to ${server}: run \`initlink login ${server}\` first.\n`);
    return ExitCode.usage;
  }
  const project = projectId ?? stored.project.id;
  // The iv of an earlier link to this project: asking again gets the same link, not another one.
  const earlier = stored.links[project]?.iv;
  const token = { access_token: stored.access_token, token_type: stored.token_type ?? "Bearer" };
  const created = await client.createLink(project, token, { iv: earlier, signal }).catch((error: unknown) => {
    if (earlier !== undefined && isInitlinkError(error, "link_revoked")) return client.createLink(project, token, { signal });
    throw error;
  });
  const linked = await client.getProject(project, created.bearer, { signal });
  const fingerprint = publicKeyFingerprint(created.public);
  if (fingerprint !== created.public_fingerprint || linked.public !== created.public) {
    process.stderr.write("The server's public key does not match the fingerprint it gave: do not use this link.\n");
    return ExitCode.failure;
  }
  stored.links[project] = { iv: created.iv, link_id: created.link_id, bearer: created.bearer, expires_at: created.expires_at };
  await writeCredentials(directory, credentials);

  const out = process.stdout;
  out.write(`Linked to the project "${linked.name}" (${linked.id}); the link expires ${new Date(created.expires_at).toLocaleString()}.\n`);
  out.write(`Public key fingerprint: ${fingerprint}\n`);
  out.write(`Compare it with the fingerprint on ${client.projectPage(linked.id)}: they must be the same.\n`);
  out.write(`The link's bearer is stored in ${credentialsFile(directory)}.\n`);
  return ExitCode.ok;
}
