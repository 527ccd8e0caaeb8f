// What the waiting benchmark's peer (tests/load/peer-device-flow.mjs) uses of node-oidc-provider,
// which ships no types.
declare module "oidc-provider" {
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    listen(port: number, host: string, listening: () => void): unknown;
  }
}
