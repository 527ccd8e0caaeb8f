import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Layering: imports run one way, from app/, scripts/ and tests/ down to lib/ and from there to
// server/ (plain JavaScript, which imports none of them), never back up; and lib/'s modules
// never import each other in a loop.

const ROOT = path.resolve(".");
const IMPORT = /\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const file = path.join(directory, entry);
    if (statSync(file).isDirectory()) return entry === "generated" ? [] : sources(file);
    return /\.(ts|tsx|mjs)$/.test(entry) ? [path.relative(ROOT, file)] : [];
  });
}

/** The repository's files a module imports (type-only imports too: they tie the layers as well); packages are left out. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(IMPORT)].flatMap((match) => {
    const specifier = match[1] ?? match[2];
    const base = specifier.startsWith("@/") ? specifier.slice(2) : specifier.startsWith(".") ? path.join(path.dirname(file), specifier) : null;
    if (base === null) return [];
    const found = [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, path.join(base, "index.ts")].find((candidate) => existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile());
    return found === undefined ? [] : [path.normalize(found)];
  });
}

const upward = (file: string) => importsOf(file).filter((target) => /^(app|scripts|tests)\//.test(target));

describe("layers", () => {
  it("lib/ imports nothing from app/, scripts/ or tests/", () => {
    const lib = sources("lib");
    expect(lib.length).toBeGreaterThan(10);
    expect(lib.flatMap((file) => upward(file).map((target) => `${file} → ${target}`))).toEqual([]);
  });

  it("server.mjs and server/ (the plain JavaScript the process runs) import nothing from lib/, app/, scripts/ or tests/", () => {
    expect(importsOf("server.mjs")).toContain(path.normalize("server/check-environment.mjs"));
    const server = ["server.mjs", ...sources("server")];
    expect(server.flatMap((file) => importsOf(file).filter((target) => /^(lib|app|scripts|tests)\//.test(target)).map((target) => `${file} → ${target}`))).toEqual([]);
  });

  it("no modules of lib/ import each other in a loop", () => {
    const graph = new Map(sources("lib").map((file) => [file, importsOf(file)]));
    const loops: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, trail: string[]) => {
      state.set(file, "open");
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === "open") loops.push([...trail.slice(trail.indexOf(target)), target].join(" → "));
        else if (!state.has(target)) visit(target, [...trail, target]);
      }
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file, [file]);
    expect(loops).toEqual([]);
  });
});
