// @ts-check
import path from "node:path";
import { fileURLToPath } from "node:url";

// Its own app: nothing of the service's (no instrumentation.ts, no rewrites), with Next.js
// resolved from the repository's node_modules.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  turbopack: { root: path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..") },
};

export default nextConfig;
