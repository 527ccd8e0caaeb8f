// @ts-check
// State that must exist once per process. `next build` can bundle one module of lib/ into
// several server chunks (route handlers, pages, instrumentation), each then with its own copy of
// module-level variables; what is kept here under a global symbol is shared by all of them (and
// by server.mjs). In plain JavaScript for server/; lib/process-wide.ts re-exports it.

/**
 * @template T
 * @param {string} name
 * @param {() => T} create
 * @returns {T}
 */
export function processWide(name, create) {
  const key = Symbol.for(`initlink.${name}`);
  const store = /** @type {Record<symbol, T | undefined>} */ (/** @type {unknown} */ (globalThis));
  store[key] ??= create();
  return /** @type {T} */ (store[key]);
}
