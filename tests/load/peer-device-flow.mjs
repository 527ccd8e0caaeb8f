// @ts-check
// The waiting benchmark's peer (tests/load/bench-waiting-at-scale.mjs): node-oidc-provider's
// device flow (RFC 8628) on one process with its in-memory store, as its own example configures
// it, on 127.0.0.1:PORT. Its clients cannot wait: they poll the token endpoint at the interval.
// A dev dependency of the benchmark only.
import Provider from "oidc-provider";

const port = Number(process.argv[2]);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{ client_id: "bench", grant_types: ["urn:ietf:params:oauth:grant-type:device_code"], response_types: [], redirect_uris: [], token_endpoint_auth_method: "none" }],
  features: { deviceFlow: { enabled: true }, devInteractions: { enabled: false } },
  ttl: { DeviceCode: 3600 },
});
// Its warnings about development keys and cookie secrets say nothing about speed.
console.warn = () => undefined;
provider.listen(port, "127.0.0.1", () => process.send?.("listening"));
