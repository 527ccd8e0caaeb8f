import { randomUUID } from "node:crypto";
import pg from "pg";
import { migratePostgresql } from "../../scripts/migrate-postgresql.mjs";

// Scratch PostgreSQL databases for the suite: one migrated template, one copy per test file.

export const TEST_DATABASE_PREFIX = "initlink_test_";

/** The URL of database `name` on the server `serverUrl` points at. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops every database whose name starts with `prefix`. */
export async function dropDatabases(serverUrl: string, prefix: string): Promise<void> {
  await onServer(serverUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

export async function migrateTemplate(serverUrl: string): Promise<string> {
  await dropDatabases(serverUrl, TEST_DATABASE_PREFIX);
  const template = `${TEST_DATABASE_PREFIX}template`;
  await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${template}"`));
  await migratePostgresql(databaseUrl(serverUrl, template), () => {});
  return template;
}

/** A fresh copy of the migrated template; PostgreSQL copies one database at a time, so retry. */
export async function copyTemplate(serverUrl: string, template: string): Promise<string> {
  const name = `${TEST_DATABASE_PREFIX}${randomUUID().replaceAll("-", "")}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await onServer(serverUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      return databaseUrl(serverUrl, name);
    } catch (error) {
      if (attempt >= 50 || !(error instanceof Error) || !error.message.includes("being accessed by other users")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}
