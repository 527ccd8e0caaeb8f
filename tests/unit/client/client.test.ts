import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { EmbeddedJWK, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { configDirectory, type Credentials, dpopKey, dpopKeyFile, readCredentials, writeCredentials } from "../../../client/src/cli/credentials";
import { DpopProver } from "../../../client/src/dpop";
import { formatRemaining } from "../../../client/src/cli/waiting";
import { InitlinkClient, newDpopKey, publicKeyFingerprint, randomIv } from "../../../client/src/index";
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

  it("keep the DPoP key beside them, readable by its owner alone, made once and read back", async () => {
    const directory = path.join(mkdtempSync(path.join(tmpdir(), "initlink-unit-")), "initlink");
    const [first, second] = await Promise.all([dpopKey(directory), dpopKey(directory)]);
    expect(statSync(dpopKeyFile(directory)).mode & 0o777).toBe(0o600);
    const publicOf = (key: KeyObject) => createPublicKey(key).export({ format: "jwk" });
    expect(publicOf(second)).toEqual(publicOf(first));
    expect(publicOf(await dpopKey(directory))).toEqual(publicOf(first));
    expect(first.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
  });
});

describe("DpopProver", () => {
  // RFC 9449 §4.2: a dpop+jwt with the public key alone, htu without the query, the nonce last given, the token's hash.
  it("signs proofs with its public key embedded, the server's nonce and the token's hash", async () => {
    const prover = new DpopProver(newDpopKey());
    const url = new URL("https://initlink.test/api/projects/p/link/i?x=1");
    const headers = new Headers({ "dpop-nonce": "server-nonce" });
    expect(prover.remember(headers)).toBe(true);
    expect(prover.remember(headers)).toBe(false);
    const proof = await prover.proof("POST", url, "ilat_token");
    const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt" });
    expect(protectedHeader).toMatchObject({ alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(protectedHeader.jwk).not.toHaveProperty("d");
    const ath = createHash("sha256").update("ilat_token").digest("base64url");
    expect(payload).toMatchObject({ htm: "POST", htu: "https://initlink.test/api/projects/p/link/i", nonce: "server-nonce", ath, jti: expect.any(String), iat: expect.any(Number) });
  });

  it("refuses a key the server does not take", () => {
    expect(() => new DpopProver(generateKeyPairSync("ed448").privateKey)).toThrow(TypeError);
    expect(() => new DpopProver(createPublicKey(newDpopKey()))).toThrow(TypeError);
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
