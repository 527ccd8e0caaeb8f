// What the tests use of node-oidc-provider, which ships no types: the waiting benchmark's peer
// (tests/load/peer-device-flow.mjs), and the upstream identity provider of the sign-in tests
// (tests/helpers/oidc-provider.ts).
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    listen(port: number, host: string, listening: () => void): unknown;
    /** The provider as a node:http request listener (it is a Koa application). */
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    readonly Grant: { new (properties: { clientId: string; accountId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  }
}
