import { NextResponse, type NextRequest } from "next/server";

// Runs before every page: a fresh nonce per request for a strict Content Security Policy.
// Next.js reads the nonce from the request's policy header and puts it on its own scripts;
// nothing else may run. Pages render per request (the layout reads the session), so each gets
// its own nonce. Never for /api/ and /.well-known/: those answers are JSON, server.mjs gives them
// their policy, and the hot path pays for no proxy.

function pagePolicy(nonce: string): string {
  // The development server evaluates code for fast refresh; the production build never does.
  const evalInDevelopment = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${evalInDevelopment}`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
  const policy = pagePolicy(nonce);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Not for the API, nor for the build's static files, which carry no markup.
  matcher: [{ source: "/((?!api/|\\.well-known/|_next/static|_next/image|favicon.ico).*)" }],
};
