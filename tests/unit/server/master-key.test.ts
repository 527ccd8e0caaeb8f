import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { MissingMasterKeyError, resolveMasterKey } from "@/server/master-key.mjs";

const execFileAsync = promisify(execFile);
const MODULE = pathToFileURL(path.resolve("server/master-key.mjs")).href;
const scratch = () => path.join(mkdtempSync(path.join(tmpdir(), "initlink-key-")), "data", "master.key");

describe("resolveMasterKey (server start)", () => {
  it("uses MASTER_KEY when it is set, and writes no file", () => {
    const file = scratch();
    expect(resolveMasterKey({ MASTER_KEY: " abc= ", NODE_ENV: "production" }, file)).toEqual({ key: "abc=", generated: false });
    expect(() => statSync(file)).toThrow();
  });

  it("refuses to start in production without one", () => {
    expect(() => resolveMasterKey({ NODE_ENV: "production" }, scratch())).toThrow(MissingMasterKeyError);
  });

  it("generates a development key once, readable only by its owner, and reuses it", () => {
    const file = scratch();
    const first = resolveMasterKey({}, file);
    expect(first.generated).toBe(true);
    expect(Buffer.from(first.key, "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // The key's folder is the default database's too (data/): created first, it must be the owner's alone.
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(resolveMasterKey({ NODE_ENV: "development" }, file)).toEqual({ key: first.key, generated: false });
    expect(readFileSync(file, "utf8").trim()).toBe(first.key);
  });

  it("gives servers starting at once the same key", async () => {
    const file = scratch();
    const script = `import { resolveMasterKey } from ${JSON.stringify(MODULE)}; console.log(JSON.stringify(resolveMasterKey({}, ${JSON.stringify(file)})));`;
    const starts = Array.from({ length: 8 }, () => execFileAsync(process.execPath, ["--input-type=module", "-e", script]));
    const results = (await Promise.all(starts)).map(({ stdout }) => JSON.parse(stdout) as { key: string; generated: boolean });
    expect(new Set(results.map((result) => result.key)).size).toBe(1);
    expect(results.filter((result) => result.generated)).toHaveLength(1);
  });
});
