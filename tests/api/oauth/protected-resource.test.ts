import { describe, expect, it } from "vitest";
import { dispatch } from "../../helpers/in-process";
import { createLink, randomIv, withToken } from "../../helpers/links";

// RFC 9728: the project API's protected resource metadata, at the well-known address and named by
// the challenge of its 401s (§5.1), where a client such as the Model Context Protocol's starts
// its login; other routes' challenges (metrics, introspection) name none.

const APP_URL = "https://initlink.test";
const METADATA_URL = `${APP_URL}/.well-known/oauth-protected-resource`;

describe("GET /.well-known/oauth-protected-resource", () => {
  it("names the project API, this service as its authorization server, and how tokens are sent", async () => {
    const response = await dispatch("GET", "/.well-known/oauth-protected-resource");
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await response.json()).toEqual({
      resource: APP_URL,
      authorization_servers: [APP_URL],
      bearer_methods_supported: ["header"],
      dpop_signing_alg_values_supported: ["ES256", "ES384", "EdDSA", "Ed25519", "PS256", "RS256"],
      resource_name: "initlink project API",
      resource_documentation: `${APP_URL}/docs`,
    });
  });
});

describe("the project API's 401 (RFC 9728 §5.1)", () => {
  it("names the metadata without a credential, and with an unusable one beside invalid_token", async () => {
    const bare = await dispatch("GET", "/api/projects");
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toBe(`Bearer realm="initlink", resource_metadata="${METADATA_URL}"`);
    const refused = await createLink("f0hzLD1VaTUHWk7oIoQhpg", randomIv(), withToken("ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe(`Bearer realm="initlink", error="invalid_token", resource_metadata="${METADATA_URL}"`);
  });

  it("is not named by routes that take other credentials", async () => {
    const introspection = await dispatch("POST", "/api/oauth/introspect", { body: "token=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(introspection.status).toBe(401);
    expect(introspection.headers.get("www-authenticate")).toBe('Bearer realm="initlink"');
  });
});
