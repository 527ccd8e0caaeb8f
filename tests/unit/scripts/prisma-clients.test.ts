import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clientsAreStale } from "@/scripts/prisma.mjs";

// `npm start` and `npm test` regenerate the Prisma clients when they are missing or older than
// the data model: after a pull that changes prisma/schema.prisma the build must see the new model.

function scratch() {
  const folder = mkdtempSync(path.join(tmpdir(), "initlink-clients-"));
  const schema = path.join(folder, "schema.prisma");
  const clients = ["sqlite.ts", "postgresql.ts"].map((name) => path.join(folder, name));
  for (const file of [schema, ...clients]) writeFileSync(file, "");
  const age = (file: string, secondsAgo: number) => {
    const at = Date.now() / 1000 - secondsAgo;
    utimesSync(file, at, at);
  };
  return { schema, clients, age };
}

describe("clientsAreStale (npm start)", () => {
  it("is false when every client was generated after the model last changed", () => {
    const { schema, clients, age } = scratch();
    age(schema, 60);
    expect(clientsAreStale(schema, clients)).toBe(false);
  });

  it("is true when the model changed after a client was generated", () => {
    const { schema, clients, age } = scratch();
    age(clients[1], 60);
    expect(clientsAreStale(schema, clients)).toBe(true);
  });

  it("is true when a client is missing", () => {
    const { schema, clients } = scratch();
    expect(clientsAreStale(schema, [...clients, path.join(path.dirname(schema), "absent.ts")])).toBe(true);
  });
});
