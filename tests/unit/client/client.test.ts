import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configDirectory, type Credentials, readCredentials, writeCredentials } from "../../../client/src/cli/credentials";
import { formatRemaining } from "../../../client/src/cli/waiting";
import { InitlinkClient, publicKeyFingerprint, randomIv } from "../../../client/src/index";
import { publicKeyFingerprint as pageFingerprint } from "../../../lib/projects/project-keys";

// The typed client's and the CLI's pure parts; their work against the server is in
// tests/e2e/client.spec.ts and cli.spec.ts.

describe("the client stands alone", () => {
  // It is published on its own: nothing from the app, and no package but Node's own and jose,
  // which signs its DPoP proofs (the CLI may use others).
  it("imports only its own modules, node: built-ins and jose", () => {
    const root = path.resolve("client/src");
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    expect(files).toContain("client.ts");
    const offending = files.flatMap((file) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(/\bfrom\s+["']([^"']+)["']/g)]
        .map((match) => match[1])
        .filter((specifier) => {
          if (specifier.startsWith(".")) return !path.resolve(root, path.dirname(file), specifier).startsWith(root);
          return !specifier.startsWith("node:") && specifier !== "jose" && !(file.startsWith("cli") && specifier === "qrcode");
        })
        .map((specifier) => `${file} → ${specifier}`),
    );
    expect(offending).toEqual([]);
  });
});

describe("publicKeyFingerprint", () => {
  // The person compares the CLI's fingerprint with the page's: the two must be computed alike.
  it("is the fingerprint the project page shows", () => {
    const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(publicKeyFingerprint(pem)).toBe(pageFingerprint(pem));
    expect(publicKeyFingerprint(pem)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});

describe("randomIv", () => {
  it("is 128 random bits in hex, new each time", () => {
    expect(randomIv()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomIv()).not.toBe(randomIv());
  });
});

describe("InitlinkClient's server", () => {
  it("keeps a path prefix and drops a query, so that API paths resolve below it", () => {
    expect(new InitlinkClient({ server: "https://example.com/initlink?x=1" }).server.href).toBe("https://example.com/initlink/");
    expect(new InitlinkClient({ server: "http://127.0.0.1:3000" }).projectPage("a b")).toBe("http://127.0.0.1:3000/projects/a%20b");
  });

  it("refuses what is not an http(s) address", () => {
    expect(() => new InitlinkClient({ server: "file:///etc/passwd" })).toThrow(TypeError);
    expect(() => new InitlinkClient({ server: "localhost" })).toThrow(TypeError);
  });
});

describe("the CLI's credentials", () => {
  it("live in INITLINK_CONFIG_DIR, else $XDG_CONFIG_HOME/initlink when absolute, else ~/.config/initlink", () => {
    expect(configDirectory({ INITLINK_CONFIG_DIR: "/srv/x", XDG_CONFIG_HOME: "/cfg" })).toBe("/srv/x");
    expect(configDirectory({ XDG_CONFIG_HOME: "/cfg" })).toBe("/cfg/initlink");
    expect(configDirectory({ XDG_CONFIG_HOME: "relative" })).toMatch(/\.config\/initlink$/);
  });

  it("are written readable by their owner alone, in a directory only the owner can enter, and read back", async () => {
    const directory = path.join(mkdtempSync(path.join(tmpdir(), "initlink-unit-")), "a", "initlink");
    expect(await readCredentials(directory)).toEqual({ version: 1, current: null, servers: {} });
    const credentials: Credentials = { version: 1, current: "http://x/", servers: {} };
    await writeCredentials(directory, credentials);
    await writeCredentials(directory, { ...credentials, current: "http://y/" });
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(directory, "credentials.json")).mode & 0o777).toBe(0o600);
    expect((await readCredentials(directory)).current).toBe("http://y/");
    expect(readdirSync(directory)).toEqual(["credentials.json"]);
    // A file that is not the CLI's is refused with what to do, never taken as empty and overwritten.
    writeFileSync(path.join(directory, "credentials.json"), '{"servers": []}');
    await expect(readCredentials(directory)).rejects.toThrow("is not a credentials file of this CLI: remove it and log in again.");
  });
});

describe("formatRemaining", () => {
  it.each([
    [900_000, "15:00"],
    [59_001, "1:00"],
    [9_500, "0:10"],
    [-5, "0:00"],
    [3_600_000 + 61_000, "1:01:01"],
  ])("%d ms → %s", (ms, shown) => expect(formatRemaining(ms)).toBe(shown));
});
