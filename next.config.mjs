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
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          // No other site may frame the pages (clickjacking of Approve), and no page leaks its
          // URL (which carries the init id) as a referrer. The Content-Security-Policy, with a
          // nonce per request, comes from proxy.ts; HSTS from server.mjs (it depends on APP_URL).
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "no-referrer" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
    ];
  },
};

export default nextConfig;
