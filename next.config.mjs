// The security headers of every answer are set by server.mjs (lib/runtime/security-headers.mjs):
// as headers() here Next would match and compile them on every request.
/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The native SQLite binding is loaded by Node at run time, never bundled. prom-client is loaded
  // once per process, by server.mjs and the app alike: one registry, one answer to the primary.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "prom-client"],
  async rewrites() {
    return [{ source: "/.well-known/jwks.json", destination: "/api/well-known/jwks" }];
  },
};

export default nextConfig;
