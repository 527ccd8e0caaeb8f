import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

// The upstream identity provider of the sign-in tests: node-oidc-provider (a certified OpenID
// Provider) on 127.0.0.1, with one confidential client (client_secret_basic, its redirect URI our
// callback) and the accounts a test names. Its login page is the library's development login
// (devInteractions: any login name, any password), which Chromium fills in; an API test goes
// through the same pages with plain requests (signInAtProvider). Consent is taken as given for
// this client, as a platform's own provider does for its first-party apps.

export const CLIENT_ID = "initlink";
export const CLIENT_SECRET = "test-client-secret-of-32-characters!";

/** What the provider says of an account: its email, and whether it is verified; none for an account without. */
export type AccountClaims = { email?: string; email_verified?: boolean };

export type TestProvider = {
  issuer: string;
  /** Accounts by login name: what the provider says of each (a name not here signs in with no email). */
  accounts: Map<string, AccountClaims>;
  /** Stops answering (every connection closed): the provider is down. */
  stop(): Promise<void>;
  /** Answers again, on the same port. */
  restart(): Promise<void>;
};

type GrantContext = { oidc: { client: { clientId: string }; session: { accountId: string; grantIdFor(clientId: string): string | undefined }; result?: { consent?: { grantId?: string } } } };

/**
 * Starts the provider for `redirectUris` (one client, for one server or several). `claimsInIdToken`: the email goes into the ID token too
 * (`conformIdTokenClaims: false`), as Keycloak or Auth0 do; otherwise at UserInfo only, as the
 * specification has it for a code flow (OpenID Connect Core §5.4).
 */
export async function startTestProvider(redirectUris: string | string[], { claimsInIdToken = false }: { claimsInIdToken?: boolean } = {}): Promise<TestProvider> {
  const accounts = new Map<string, AccountClaims>();
  // Idle connections are closed by the client first (undici after 4 s), never by this server as
  // the client reuses one: that race reset a token request now and then.
  const server: Server = createServer({ keepAliveTimeout: 60_000 });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const provider: Provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [redirectUris].flat(),
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    async findAccount(_ctx: unknown, id: string) {
      return { accountId: id, claims: async () => ({ sub: id, ...accounts.get(id) }) };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    conformIdTokenClaims: !claimsInIdToken,
    cookies: { keys: ["test-only-cookie-key"] },
    async loadExistingGrant(ctx: GrantContext) {
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId !== undefined) return provider.Grant.find(grantId);
      const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  });
  server.on("request", provider.callback());
  return {
    issuer,
    accounts,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    restart: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
  };
}

/** A browser's cookies of one site, by name (paths are not told apart: the provider's names are distinct). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const separator = pair.indexOf("=");
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1));
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

/**
 * Goes through the provider from its authorization URL as a browser would, without one: the
 * development login as `login` (or its Cancel, `deny`), and returns where the provider sends the
 * browser back (the callback URL with `code` and `state`, or `error`). Each visit is a new browser.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, { deny = false }: { deny?: boolean } = {}): Promise<URL> {
  const jar = new CookieJar();
  const visit = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header() } });
    jar.take(response);
    await response.arrayBuffer();
    return response;
  };
  const start = new URL(authorizationUrl);
  let at = new URL((await visit(start)).headers.get("location") ?? "", start);
  if (!/^\/interaction\/[^/]+$/.test(at.pathname)) throw new Error(`the provider did not ask for a login: ${at.href}`);
  const answer = deny
    ? await visit(new URL(`${at.pathname}/abort`, at))
    : await visit(at, { method: "POST", body: new URLSearchParams({ prompt: "login", login, password: "any" }), headers: { "content-type": "application/x-www-form-urlencoded" } });
  at = new URL(answer.headers.get("location") ?? "", at);
  // The login resumes the authorization request, which answers with the redirect back.
  const resumed = await visit(at);
  return new URL(resumed.headers.get("location") ?? "", at);
}
