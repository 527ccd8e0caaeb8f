import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { seal, SealedValueError, unseal } from "@/lib/crypto/sealed";

const masterKey = randomBytes(32);
const plaintext = Buffer.from("a private key, in DER");

describe("sealed values", () => {
  it("open under the same key and row", () => {
    const sealed = seal(masterKey, plaintext, "project-key:p1");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(unseal(masterKey, sealed, "project-key:p1")).toEqual(plaintext);
  });

  it("never repeat a nonce: the same plaintext seals differently every time", () => {
    expect(seal(masterKey, plaintext, "row")).not.toBe(seal(masterKey, plaintext, "row"));
  });

  it.each([
    ["another master key", (sealed: string) => unseal(randomBytes(32), sealed, "project-key:p1")],
    ["another row", (sealed: string) => unseal(masterKey, sealed, "project-key:p2")],
    ["a changed ciphertext", (sealed: string) => unseal(masterKey, sealed.replace(/\.(.)/g, (_m, c: string) => `.${c === "A" ? "B" : "A"}`), "project-key:p1")],
    ["an unknown version", (sealed: string) => unseal(masterKey, sealed.replace("v1.", "v2."), "project-key:p1")],
    ["a truncated value", (sealed: string) => unseal(masterKey, sealed.split(".").slice(0, 3).join("."), "project-key:p1")],
    ["a nonce of the wrong length", (sealed: string) => unseal(masterKey, sealed.replace(/^v1\.[^.]+\./, "v1.AAAA."), "project-key:p1")],
    ["a truncated tag", (sealed: string) => unseal(masterKey, sealed.slice(0, -10), "project-key:p1")],
  ])("refuse to open under %s", (_case, open) => {
    const sealed = seal(masterKey, plaintext, "project-key:p1");
    expect(() => open(sealed)).toThrow(SealedValueError);
  });
});
