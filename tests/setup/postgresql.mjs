// @ts-check
// Scratch PostgreSQL databases for the suites: for Vitest one migrated template and one copy
// per test file; for Playwright one fresh database per server.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { migratePostgresql } from "../../server/migrate-postgresql.mjs";

/** Every run's databases start with its own prefix, so that runs side by side never touch each other's. */
export const runPrefix = () => `initlink_test_${randomUUID().slice(0, 8)}_`;

/**
 * The URL of database `name` on the server `serverUrl` points at.
 * @param {string} serverUrl @param {string} name
 */
export function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * @template T
 * @param {string} serverUrl
 * @param {(client: pg.Client) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function onServer(serverUrl, work) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Drops every database whose name starts with `prefix`.
 * @param {string} serverUrl @param {string} prefix
 */
export async function dropDatabases(serverUrl, prefix) {
  await onServer(serverUrl, async (client) => {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}

/**
 * An empty database `name` (dropped first if it exists), on the server of `serverUrl`.
 * @param {string} serverUrl @param {string} name
 */
export async function freshDatabase(serverUrl, name) {
  await onServer(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  return databaseUrl(serverUrl, name);
}

/** @param {string} serverUrl @param {string} prefix */
export async function migrateTemplate(serverUrl, prefix) {
  const template = `${prefix}template`;
  await migratePostgresql(await freshDatabase(serverUrl, template));
  return template;
}

/**
 * A fresh copy of the migrated template; PostgreSQL copies a template for one session at a
 * time, so a busy template is retried.
 * @param {string} serverUrl @param {string} template @param {string} prefix
 */
export async function copyTemplate(serverUrl, template, prefix) {
  const name = `${prefix}${randomUUID().replaceAll("-", "")}`;
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
