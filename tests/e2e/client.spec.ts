import { expect, test } from "@playwright/test";
import { InitlinkClient, InitlinkError, publicKeyFingerprint, type WaitProgress } from "../../client/src/index";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approveTypingTheCode, denyAsNewPerson } from "./client-flow";

// The typed client (client/) against the production build: what its README promises, from
// Create Init to the project a link's bearer opens, and its typed errors.

const userAgent = "acme-e2e/1.0 (typed client)";
const main = new InitlinkClient({ server: MAIN_URL, userAgent });
const short = new InitlinkClient({ server: SHORT_URL, userAgent });
const fields = { sender: "@acme/cli", sender_device: "e2e box", sender_os: "linux", user_code_shown: true };

/** What a promise rejects with (a test fails if it resolves). */
async function rejectionOf(promise: Promise<unknown>): Promise<InitlinkError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(InitlinkError);
  return error as InitlinkError;
}

test("createInit → a person approves → waitForOutcome → collectToken → createLink → getProject", async ({ page }) => {
  const init = await main.createInit(fields);
  expect(init).toMatchObject({ url: `${MAIN_URL}/api/init/${init.id}`, redirect_url: `${MAIN_URL}/init/${init.id}`, user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/) });

  const waiting = main.waitForOutcome(init);
  await approveTypingTheCode(page, init, "Client journey");
  const outcome = await waiting;
  expect(outcome).toMatchObject({ status: "done", project: { name: "Client journey" } });

  const token = await main.collectToken(init, outcome);
  expect(token.access_token).toMatch(/^ilat_[A-Za-z0-9_-]{43}$/);
  // DPoP by default (RFC 9449): the token is bound to the client's key, useless as a plain bearer.
  expect(token.token_type).toBe("DPoP");
  expect(await rejectionOf(main.createLink(token.project.id, token.access_token))).toMatchObject({ code: "invalid_token", status: 401 });
  expect(token).toMatchObject({ project: { name: "Client journey" }, project_url: `${MAIN_URL}/projects/${token.project.id}`, approved_by: null });
  // Delivered once: asking again finds it gone, said with its own code.
  const again = await rejectionOf(main.collectToken(init));
  expect(again).toMatchObject({ code: "token_already_collected" });

  const link = await main.createLink(token.project.id, token);
  expect(link).toMatchObject({ success: true, iv: expect.stringMatching(/^[0-9a-f]{32}$/), bearer: expect.stringMatching(/^Bearer /) });
  expect(publicKeyFingerprint(link.public)).toBe(link.public_fingerprint);
  // The same iv again is the same link (retries are safe).
  const retried = await main.createLink(token.project.id, token, { iv: link.iv });
  expect(retried.link_id).toBe(link.link_id);

  // The token made for one project reaches that one, a personal project.
  expect(await main.listProjects(token)).toEqual({ projects: [{ id: token.project.id, name: "Client journey", created_at: expect.any(Number), team_id: null }], teams: [] });

  const project = await main.getProject(token.project.id, link.bearer);
  expect(project).toMatchObject({ id: token.project.id, name: "Client journey", public: link.public, link: { id: link.link_id, iv: link.iv } });

  // The fingerprint the client computed is the one the project page shows.
  await page.goto(main.projectPage(token.project.id));
  await expect(page.getByText(publicKeyFingerprint(project.public))).toBeVisible();
});

test("a denial resolves the wait as denied, and collectToken then throws init_denied", async ({ page }) => {
  const init = await main.createInit(fields);
  const waiting = main.waitForOutcome(init);
  await denyAsNewPerson(page, init);
  const outcome = await waiting;
  expect(outcome.status).toBe("denied");
  const error = await rejectionOf(main.collectToken(init, outcome));
  expect(error).toMatchObject({ code: "init_denied" });
});

// SHORT_URL: inits live 10 s with an interval of 500 ms.
test("an init nobody approves expires, whether the client waits held or polls (and is slowed down)", async () => {
  const [held, polled] = await Promise.all([short.createInit(fields), short.createInit(fields)]);
  // A poll just before the client's first one: the client's is refused with slow_down, which it must wait out.
  const early = await fetch(polled.url, { headers: { authorization: `Bearer ${polled.secret}` } });
  expect(early.status).toBe(200);
  const progress: WaitProgress[] = [];
  const [heldOutcome, polledOutcome] = await Promise.all([
    short.waitForOutcome(held),
    short.waitForOutcome(polled, { preferWait: false, onProgress: (step) => progress.push(step) }),
  ]);
  expect(heldOutcome.status).toBe("expired");
  expect(polledOutcome.status).toBe("expired");
  // The polling client reported the time left as it went, counting down.
  expect(progress.length).toBeGreaterThan(5);
  expect(progress.every((step) => step.mode === "poll" && step.expiresAt === polled.expires_at)).toBe(true);
  expect(progress.at(-1)!.remainingMs).toBeLessThan(progress[0].remainingMs);
  const error = await rejectionOf(short.collectToken(polled, polledOutcome));
  expect(error).toMatchObject({ code: "init_expired" });
});

test("waitForOutcome stops with the signal's reason, even while the server holds its request", async () => {
  const init = await main.createInit(fields);
  const startedAt = Date.now();
  const reason = await main.waitForOutcome(init, { signal: AbortSignal.timeout(1000) }).catch((error: unknown) => error);
  expect(reason).toMatchObject({ name: "TimeoutError" });
  expect(Date.now() - startedAt).toBeLessThan(5000);
});

test("failures are typed errors with the wire code and status", async () => {
  const invalid = await rejectionOf(main.createInit({ sender: "" }));
  expect(invalid).toMatchObject({ code: "invalid_request", status: 400, fields: [{ field: "sender" }] });

  const badToken = await rejectionOf(main.createLink("AAAAAAAAAAAAAAAAAAAAAA", "ilat_not-a-token"));
  expect(badToken).toMatchObject({ code: "invalid_token", status: 401 });

  const badBearer = await rejectionOf(main.getProject("AAAAAAAAAAAAAAAAAAAAAA", "Bearer not.a.jwt"));
  expect(badBearer).toMatchObject({ code: "invalid_token", status: 401 });

  const unknownInit = await rejectionOf(main.collectToken({ ...(await main.createInit(fields)), url: `${MAIN_URL}/api/init/AAAAAAAAAAAAAAAAAAAAAA` }));
  expect(unknownInit).toMatchObject({ code: "not_found", status: 404 });

  const nobody = new InitlinkClient({ server: "http://127.0.0.1:9" });
  const unreachable = await rejectionOf(nobody.createInit(fields));
  expect(unreachable).toMatchObject({ code: "network_error", status: null });
});
