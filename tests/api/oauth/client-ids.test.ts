import { describe, expect, it, vi } from "vitest";
import { config } from "@/lib/config";
import { clientIdStanding } from "@/lib/oauth/client-ids";
import { databaseFingerprint } from "../../helpers/hostile/fingerprint";
import { authorizationQuery, authorizeRequest, CLIENT_ID, deviceAuthorized, pkcePair, postDeviceAuthorization } from "../../helpers/oauth";

// OAUTH_CLIENT_IDS: the device authorization accepts the listed client_ids
// only; any other is RFC 6749 §5.2 invalid_client, refused before anything is counted or written.

vi.hoisted(() => {
  process.env.OAUTH_CLIENT_IDS = "@acme/cli, Acme Deploy";
});

describe("restricting the client_ids", () => {
  it("accepts a listed client_id", async () => {
    const device = await deviceAuthorized(CLIENT_ID);
    expect(device.device_code).toMatch(/^ilsec_/);
    expect((await deviceAuthorized("Acme Deploy")).user_code).toEqual(expect.any(String));
  });

  // RFC 6749 §5.2: a public client sends no credentials, so no authentication scheme applies: 400.
  it.each(["@evil/cli", "@ACME/CLI", "@acme/cli2"])("refuses %s with 400 invalid_client, writing nothing", async (clientId) => {
    const before = await databaseFingerprint();
    const response = await postDeviceAuthorization({ client_id: clientId });
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("www-authenticate")).toBeNull();
    expect(await response.json()).toEqual({ error: "invalid_client", error_description: "This client_id is not accepted here." });
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("applies at the authorization endpoint, where an unlisted client_id is shown on our page, never redirected to", async () => {
    const { challenge } = pkcePair();
    expect((await authorizeRequest(authorizationQuery(challenge))).headers.get("location")).toMatch(/\/init\/[A-Za-z0-9_-]{22}$/);
    const before = await databaseFingerprint();
    const refused = await authorizeRequest(authorizationQuery(challenge, { client_id: "@evil/cli" }));
    expect(refused.headers.get("location")).toBe("https://initlink.test/oauth/refused?error=invalid_client");
    expect(await databaseFingerprint()).toEqual(before);
  });

  it("tells the approval page which names are listed", () => {
    expect(clientIdStanding(config(), "@acme/cli")).toBe("listed");
    expect(clientIdStanding(config(), "@evil/cli")).toBe("unlisted");
    expect(clientIdStanding({ ...config(), oauthClientIds: null }, "@evil/cli")).toBe("unrestricted");
  });
});
