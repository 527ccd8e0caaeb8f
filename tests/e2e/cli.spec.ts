import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import QRCode from "qrcode";
import { MAIN_URL, SHORT_URL } from "../../playwright.config";
import { approveTypingTheCode, denyAsNewPerson } from "./client-flow";

// The reference CLI (client/src/cli) as a person runs it: the program package.json's bin names,
// built for plain Node, as a child process (its output a pipe) or in a pseudo-terminal (util-linux
// `script`), against the production build; the person acts in Chromium.

const bin = (JSON.parse(readFileSync("package.json", "utf8")) as { bin: { initlink: string } }).bin.initlink;

// One build for the file: its tests run in order in one worker.
test.describe.configure({ mode: "default" });

// The same build `npm ci` makes (postinstall), so that the test runs the CLI of these sources.
test.beforeAll(() => {
  execFileSync(process.execPath, [path.join("node_modules", "typescript", "bin", "tsc"), "-p", "client"], { stdio: "inherit" });
});

/** A config directory of the test's own, not yet created: the CLI makes it. */
const newConfigDirectory = () => path.join(mkdtempSync(path.join(tmpdir(), "initlink-cli-")), "config", "initlink");

type Run = { output: () => string; errors: () => string; waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>; exit: Promise<number | null>; interrupt: () => void };

function run(command: string, args: string[], env: Record<string, string>): Run {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    output: () => stdout,
    errors: () => stderr,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stdout);
          if (match === null) return;
          listeners.delete(check);
          resolve(match);
        };
        listeners.add(check);
        check();
        void exit.then(() => reject(new Error(`the CLI exited before printing ${pattern}: ${stdout}${stderr}`)));
      }),
    exit,
    // In a pseudo-terminal, Ctrl-C: the terminal sends SIGINT to the program.
    interrupt: () => child.stdin.write("\x03"),
  };
}

const cli = (args: string[], env: Record<string, string>) => run(process.execPath, [bin, ...args], env);

/** The CLI in a pseudo-terminal (its stdout a TTY), by util-linux's `script` (BSD's on macOS). */
function cliInTerminal(args: string[], env: Record<string, string>): Run {
  const command = [process.execPath, bin, ...args].map((word) => `'${word.replace(/'/g, "'\\''")}'`).join(" ");
  return run("script", process.platform === "darwin" ? ["-q", "/dev/null", "sh", "-c", command] : ["-qefc", command, "/dev/null"], env);
}

async function printedInit(login: Run) {
  const [, redirectUrl] = await login.waitFor(/^ {2}(http:\/\/\S+\/init\/[\w-]{22})$/m);
  const [, userCode] = await login.waitFor(/^ {2}([A-Z]{4}-[A-Z]{4})$/m);
  return { redirect_url: redirectUrl, user_code: userCode };
}

const modeOf = (file: string) => statSync(file).mode & 0o777;

test("login prints the link, its code and QR code; the person approves; the token is stored for the owner alone, and link shows the page's fingerprint", async ({ page }) => {
  const config = newConfigDirectory();
  const login = cli(["login", MAIN_URL, "--device", "e2e cli box"], { INITLINK_CONFIG_DIR: config });
  const init = await printedInit(login);
  expect(init.redirect_url.startsWith(`${MAIN_URL}/init/`)).toBe(true);
  await login.waitFor(/Waiting for approval… \d+:\d\d left/);
  expect(login.output()).toContain(await QRCode.toString(init.redirect_url, { type: "utf8" }));

  await approveTypingTheCode(page, init, "CLI project");
  expect(await login.exit, login.errors()).toBe(0);
  // The approver's email stays with the service unless their account shares it (/settings/privacy).
  expect(login.output()).toMatch(/Approved for the project "CLI project"/);

  const file = path.join(config, "credentials.json");
  expect(modeOf(config)).toBe(0o700);
  expect(modeOf(file)).toBe(0o600);
  const stored = JSON.parse(readFileSync(file, "utf8"));
  const credentials = stored.servers[`${MAIN_URL}/`];
  expect(stored.current).toBe(`${MAIN_URL}/`);
  expect(credentials).toMatchObject({ access_token: expect.stringMatching(/^ilat_/), token_type: "DPoP", project: { name: "CLI project" } });
  // DPoP by default: the token is bound to the key beside it (owner-only), and useless as a plain bearer.
  expect(modeOf(path.join(config, "dpop-key.pem"))).toBe(0o600);
  const asBearer = await fetch(`${MAIN_URL}/api/projects/${credentials.project.id}/link/${"cd".repeat(16)}`, { method: "POST", headers: { authorization: `Bearer ${credentials.access_token}` } });
  expect(asBearer.status).toBe(401);
  expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP .*error="invalid_token"/);

  // link uses the stored token (so it works) and prints the fingerprint the project page shows.
  const link = cli(["link"], { INITLINK_CONFIG_DIR: config });
  expect(await link.exit, link.errors()).toBe(0);
  const [, fingerprint] = await link.waitFor(/^Public key fingerprint: (SHA256:[A-Za-z0-9+/]{43})$/m);
  expect(link.output()).toContain(`"CLI project" (${credentials.project.id})`);
  await page.goto(`/projects/${credentials.project.id}`);
  await expect(page.getByText(fingerprint)).toBeVisible();
  expect(modeOf(file)).toBe(0o600);

  // Linking again is the same link (its iv is kept), not another one. An id may start with "-": after "--".
  const linkId = () => JSON.parse(readFileSync(file, "utf8")).servers[`${MAIN_URL}/`].links[credentials.project.id].link_id;
  const first = linkId();
  const again = cli(["link", "--server", MAIN_URL, "--", credentials.project.id], { INITLINK_CONFIG_DIR: config });
  expect(await again.exit, again.errors()).toBe(0);
  expect(linkId()).toBe(first);

  // Never the token or a bearer on the screen.
  for (const shown of [login.output(), login.errors(), link.output(), link.errors(), again.output()]) {
    expect(shown).not.toContain(credentials.access_token);
    expect(shown).not.toMatch(/ilat_|eyJ/);
  }
});

test("a denied login exits 3 and stores nothing", async ({ page }) => {
  const config = newConfigDirectory();
  const login = cli(["login", MAIN_URL], { INITLINK_CONFIG_DIR: config });
  await denyAsNewPerson(page, await printedInit(login));
  expect(await login.exit, login.errors()).toBe(3);
  expect(login.errors()).toContain("Denied");
  expect(existsSync(path.join(config, "credentials.json"))).toBe(false);
});

// SHORT_URL: inits live 10 s.
test("--open hands the link to the browser opener, a failing opener does not stop the login, and an expired login exits 4", async () => {
  const opener = mkdtempSync(path.join(tmpdir(), "initlink-opener-"));
  const opened = path.join(opener, "opened.txt");
  // An xdg-open that records what it was asked to open, then fails as one without a desktop does.
  writeFileSync(path.join(opener, "xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\nexit 1\n`);
  chmodSync(path.join(opener, "xdg-open"), 0o755);
  const login = cli(["login", SHORT_URL, "--open"], { INITLINK_CONFIG_DIR: newConfigDirectory(), PATH: `${opener}:${process.env.PATH}` });
  const init = await printedInit(login);
  await login.waitFor(/Could not open a browser: open the link above yourself\./);
  expect(readFileSync(opened, "utf8")).toBe(init.redirect_url);
  expect(await login.exit, login.errors()).toBe(4);
  expect(login.errors()).toContain("Expired");
});

test("in a terminal, login shows a spinner with the time left, and Ctrl-C ends it with 130", async () => {
  const login = cliInTerminal(["login", SHORT_URL], { INITLINK_CONFIG_DIR: newConfigDirectory() });
  await printedInit(login);
  // Redrawn in place: the spinner's frames, each with the time left.
  await login.waitFor(/\r\x1b\[2K⠙ Waiting for approval… 0:\d\d left/);
  login.interrupt();
  expect(await login.exit, login.errors()).toBe(130);
  expect(login.output()).toContain("Interrupted.");
});

test("link before any login, and a wrong command line, exit 2 with what to do", async () => {
  const link = cli(["link"], { INITLINK_CONFIG_DIR: newConfigDirectory() });
  expect(await link.exit, link.errors()).toBe(2);
  expect(link.errors()).toContain("initlink login <server>");
  const unknown = cli(["logout"], { INITLINK_CONFIG_DIR: newConfigDirectory() });
  expect(await unknown.exit, unknown.errors()).toBe(2);
  expect(unknown.errors()).toContain('unknown command "logout"');
});
