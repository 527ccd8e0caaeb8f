// @ts-check
// `node tests/setup/reset-database.mjs`: empties the database DATABASE_URL names before an
// end-to-end server starts on it: deletes a SQLite file with its side files (the counters' too, so
// no rate-limit count of an earlier run is left), or drops and creates a PostgreSQL
// database (through the server's `postgres` maintenance database).
import { rmSync } from "node:fs";
import { freshDatabase } from "./postgresql.mjs";

const databaseUrl = process.env.DATABASE_URL ?? "";
if (databaseUrl.startsWith("file:")) {
  const file = databaseUrl.slice("file:".length);
  for (const database of [file, `${file}-counters`]) for (const suffix of ["", "-wal", "-shm"]) rmSync(database + suffix, { force: true });
} else {
  const url = new URL(databaseUrl);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  await freshDatabase(url.toString(), name);
}
