// State that must exist once per process. `next build` can bundle one module of lib/ into
// several server chunks (route handlers, pages, instrumentation), each then with its own copy of
// module-level variables; what is kept here under a global symbol is shared by all of them.

export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`initlink.${name}`);
  const store = globalThis as typeof globalThis & Record<symbol, T | undefined>;
  store[key] ??= create();
  return store[key];
}
