// Nothing to start: without this file Next.js picks up the repository's instrumentation.ts.
export function register() {}
