import { afterEach, describe, expect, it, vi } from "vitest";
import * as tokenRoute from "@/app/api/oauth/token/route";
import { db } from "@/lib/database/db";
import { dispatch } from "../../helpers/in-process";
import { databaseSnapshot } from "../../helpers/api";
import { createLink, randomIv, withToken } from "../../helpers/links";
import { approvedDevice, CLIENT_ID, DEVICE_CODE_GRANT, deniedDevice, deviceAuthorized, exchange, postDeviceAuthorization, postToken } from "../../helpers/oauth";

// The Device Authorization Grant (RFC 8628) on the init: metadata, device authorization, the
// token endpoint's answers, each RFC error code, and one token per approval.

afterEach(() => {
  vi.useRealTimers();
});

function travelTo(ms: number) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(ms);
}

/** RFC 6749 §5.2: 400 `{error, error_description}`, never cached. */
async function expectOAuthError(response: Response, error: string, status = 400) {
  expect(response.status).toBe(status);
  expect(response.headers.get("cache-control")).toBe("no-store");
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["error", "error_description"]);
  expect(body.error).toBe(error);
  expect(typeof body.error_description).toBe("string");
}

// RFC 8414 §3.2
describe("GET /.well-known/oauth-authorization-server", () => {
  it("names APP_URL as the issuer and the endpoints of the device and code flows", async () => {
    const response = await dispatch("GET", "/.well-known/oauth-authorization-server");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      issuer: "https://initlink.test",
      authorization_endpoint: "https://initlink.test/oauth/authorize",
      device_authorization_endpoint: "https://initlink.test/api/oauth/device_authorization",
      token_endpoint: "https://initlink.test/api/oauth/token",
      revocation_endpoint: "https://initlink.test/api/oauth/revoke",
      introspection_endpoint: "https://initlink.test/api/oauth/introspect",
      jwks_uri: "https://initlink.test/.well-known/jwks.json",
      grant_types_supported: ["authorization_code", DEVICE_CODE_GRANT, "refresh_token"],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "bearer"],
      service_documentation: "https://initlink.test/docs",
      dpop_signing_alg_values_supported: ["ES256", "ES384", "EdDSA", "Ed25519", "PS256", "RS256"],
    });
  });
});

// RFC 8628 §3.1–3.2
describe("POST /api/oauth/device_authorization", () => {
  it("creates the same init as Create Init, with the client_id as its sender and the code to be typed", async () => {
    const device = await deviceAuthorized("@acme/device-cli");
    expect(device).toEqual({
      device_code: expect.stringMatching(/^ilsec_[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
      verification_uri: "https://initlink.test/device",
      verification_uri_complete: `https://initlink.test/init/${device.initId}`,
      expires_in: 900,
      interval: 5,
      initId: expect.any(String),
    });
    const prisma = await db();
    const init = await prisma.init.findUniqueOrThrow({ where: { id: device.initId } });
    expect(init).toMatchObject({ sender: "@acme/device-cli", userCode: device.user_code, userCodeShown: true, status: "pending", observedUserAgent: "acme-cli/1.0" });
    expect(init.secretHash).not.toContain(device.device_code);
  });

  it("keeps the client's binding_message for the page", async () => {
    const response = await postDeviceAuthorization({ client_id: CLIENT_ID, binding_message: "Deploy web to production" });
    const initId = ((await response.json()) as { verification_uri_complete: string }).verification_uri_complete.split("/").at(-1) ?? "";
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: initId } })).bindingMessage).toBe("Deploy web to production");
  });

  // RFC 6749 §3.1: a parameter sent twice, a missing one, a body that is not a form.
  it.each([
    ["no client_id", "scope=x"],
    ["an empty client_id (as if omitted)", "client_id="],
    ["client_id twice", "client_id=a&client_id=b"],
    ["a control character in client_id", "client_id=%07evil"],
    ["a binding_message over 140 characters", `client_id=a&binding_message=${"b".repeat(141)}`],
  ])("refuses %s with invalid_request, writing nothing", async (_, body) => {
    const before = await databaseSnapshot();
    await expectOAuthError(await postDeviceAuthorization(body), "invalid_request");
    expect(await databaseSnapshot()).toEqual(before);
  });

  it("refuses a JSON body with invalid_request", async () => {
    const response = await dispatch("POST", "/api/oauth/device_authorization", { body: JSON.stringify({ client_id: CLIENT_ID }), headers: { "content-type": "application/json" } });
    await expectOAuthError(response, "invalid_request");
  });

  it("answers another method in the OAuth dialect, with Allow", async () => {
    const response = await tokenRoute.GET(new Request("http://localhost:3000/api/oauth/token"), { params: Promise.resolve({}) });
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    await expectOAuthError(response, "method_not_allowed", 405);
  });
});

// RFC 8628 §3.4–3.5, RFC 6749 §5.2
describe("POST /api/oauth/token — errors", () => {
  it("refuses an unknown grant type with unsupported_grant_type", async () => {
    await expectOAuthError(await postToken({ grant_type: "password", client_id: CLIENT_ID }), "unsupported_grant_type");
  });

  it.each([
    ["no grant_type", { device_code: "ilsec_x", client_id: CLIENT_ID }],
    ["no device_code", { grant_type: DEVICE_CODE_GRANT, client_id: CLIENT_ID }],
    ["no client_id", { grant_type: DEVICE_CODE_GRANT, device_code: "ilsec_x" }],
  ])("refuses %s with invalid_request", async (_, fields) => {
    await expectOAuthError(await postToken(fields), "invalid_request");
  });

  it("refuses an unknown device code, or one issued to another client, with invalid_grant", async () => {
    const device = await deviceAuthorized();
    await expectOAuthError(await exchange("ilsec_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"), "invalid_grant");
    await expectOAuthError(await exchange("not a device code"), "invalid_grant");
    await expectOAuthError(await exchange(device.device_code, "@someone/else"), "invalid_grant");
  });

  // RFC 8628 §3.5: authorization_pending, and slow_down adds 5 s to the interval each time.
  it("answers authorization_pending at the interval and slow_down sooner, each slow_down adding 5 s", async () => {
    const device = await deviceAuthorized();
    const prisma = await db();
    const start = Date.now();
    travelTo(start);
    await expectOAuthError(await exchange(device.device_code), "authorization_pending");
    travelTo(start + 1000);
    const before = await databaseSnapshot();
    await expectOAuthError(await exchange(device.device_code), "slow_down");
    expect((await prisma.init.findUniqueOrThrow({ where: { id: device.initId } })).intervalMs).toBe(10_000);
    // slow_down's longer interval is the one thing it writes.
    expect((await databaseSnapshot()).polls).toEqual(before.polls);
    travelTo(start + 6000);
    await expectOAuthError(await exchange(device.device_code), "slow_down");
    expect((await prisma.init.findUniqueOrThrow({ where: { id: device.initId } })).intervalMs).toBe(15_000);
    travelTo(start + 15_000);
    await expectOAuthError(await exchange(device.device_code), "authorization_pending");
  });

  it("answers access_denied once the person denied, every time, writing nothing", async () => {
    const device = await deniedDevice();
    const before = await databaseSnapshot();
    await expectOAuthError(await exchange(device.device_code), "access_denied");
    await expectOAuthError(await exchange(device.device_code), "access_denied");
    expect(await databaseSnapshot()).toEqual(before);
  });

  it("answers expired_token past the device code's expiry", async () => {
    const device = await deviceAuthorized();
    travelTo(Date.now() + device.expires_in * 1000 + 1);
    await expectOAuthError(await exchange(device.device_code), "expired_token");
  });
});

describe("POST /api/oauth/token — the approved device code", () => {
  it("answers the access token and a refresh token for the project once, then invalid_grant; the token links the client", async () => {
    const device = await approvedDevice("Device journey");
    const response = await exchange(device.device_code);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const token = (await response.json()) as { access_token: string; project_id: string };
    expect(token).toEqual({
      access_token: expect.stringMatching(/^ilat_[A-Za-z0-9_-]{43}$/),
      token_type: "Bearer",
      expires_in: expect.any(Number),
      refresh_token: expect.stringMatching(/^ilrt_[A-Za-z0-9_-]{43}$/),
      project_id: expect.any(String),
      project_url: `https://initlink.test/projects/${token.project_id}`,
    });
    const prisma = await db();
    const project = await prisma.project.findUniqueOrThrow({ where: { id: token.project_id } });
    expect(project.name).toBe("Device journey");
    await expectOAuthError(await exchange(device.device_code), "invalid_grant");
    const link = await createLink(token.project_id, randomIv(), withToken(token.access_token));
    expect(link.status).toBe(200);
    // The access token is the init's one: the status resource's pickup no longer hands one out.
    const status = await dispatch("GET", `/api/init/${device.initId}`, { headers: { authorization: `Bearer ${device.device_code}` } });
    expect(await status.json()).not.toHaveProperty("access_token");
  });

  it("gives exactly one token to 50 concurrent exchanges of one approved code", async () => {
    const device = await approvedDevice();
    const answers = await Promise.all(Array.from({ length: 50 }, () => exchange(device.device_code)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    const prisma = await db();
    const approver = await prisma.init.findUniqueOrThrow({ where: { id: device.initId }, select: { approvedById: true } });
    expect(await prisma.accessToken.count({ where: { userId: approver.approvedById ?? "" } })).toBe(1);
  });
});
