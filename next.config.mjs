// The security headers of every answer and the /.well-known/jwks.json alias are server.mjs's
// (server/security-headers.mjs, path-aliases.mjs): as headers() and rewrites() here, Next
// would match them against every request.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The native SQLite binding is loaded by Node at run time, never bundled. prom-client is loaded
  // once per process, by server.mjs and the app alike: one registry, one answer to the primary.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "prom-client"],
};

export default nextConfig;
