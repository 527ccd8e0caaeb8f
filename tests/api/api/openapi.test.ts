import { readdirSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as unknownApiPath } from "@/app/api/[...path]/route";
import { PUT as createInitWithPut } from "@/app/api/init/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { GET as openApiRoute } from "@/app/api/openapi.json/route";
import { publicPath } from "@/lib/api/operation";
import { OPERATIONS } from "@/lib/api/operations";
import { EVENT_TYPE_NAMES, TEST_EVENT_TYPE } from "@/lib/events/event-types";
import { PEER_ADDRESS_HEADER } from "@/server/request-context.mjs";
import { createAccessToken } from "@/lib/access-tokens/issue-access-token";
import { createInit, createInitJson, createdInit, getInitStatus } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { dispatch } from "../../helpers/in-process";
import { approvedClient, createLink, getProject, linked, randomIv, withToken } from "../../helpers/links";
import { approvedDevice, basicAuthorization, deniedDevice, deviceAuthorized, exchange, loggedIn, postDeviceAuthorization, postIntrospection, postToken, resourceServer } from "../../helpers/oauth";

// The OpenAPI document (GET /api/openapi.json) against the real answers: each route's success
// and main error answers, made through the real handlers and database, must validate against
// the document's schema for that operation and status, carry the documented media type, and
// carry no header that matters unless the document names it. An answer that drifts from the
// document, or a route file the document does not describe, fails here.

type JsonObject = Record<string, unknown>;
type Webhook = { post: { parameters: { $ref: string }[]; requestBody: { content: Record<string, { schema: JsonObject; example: unknown }> }; responses: Record<string, JsonObject> } };
type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, JsonObject> }>>;
  webhooks: Record<string, Webhook>;
  components: { schemas: Record<string, JsonObject>; parameters: Record<string, JsonObject> };
};

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
// zod marks startsWith checks with this format; their `pattern` is what checks them.
ajv.addFormat("starts_with", true);

let doc: Doc;

beforeAll(async () => {
  const response = await openApiRoute(new Request("https://initlink.test/api/openapi.json"), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  doc = (await response.json()) as Doc;
});

/** Headers whose presence the document must account for. */
const MEANINGFUL_HEADERS = ["retry-after", "preference-applied", "www-authenticate", "location", "access-control-allow-origin"];

/** Checks a real answer against the document's response for `method path` and its status; returns the body read. */
async function expectDocumented(method: string, docPath: string, response: Response): Promise<unknown> {
  const operation = doc.paths[docPath]?.[method];
  expect(operation, `${method} ${docPath} is in the document`).toBeDefined();
  const documented = operation.responses[String(response.status)] as { headers?: Record<string, JsonObject>; content?: Record<string, { schema: JsonObject }> } | undefined;
  expect(documented, `${method} ${docPath} documents status ${response.status}`).toBeDefined();
  const documentedHeaders = Object.keys(documented?.headers ?? {}).map((name) => name.toLowerCase());
  for (const name of MEANINGFUL_HEADERS) {
    if (response.headers.has(name)) expect(documentedHeaders, `${method} ${docPath} ${response.status} documents ${name}`).toContain(name);
  }
  const content = documented?.content;
  if (content === undefined) {
    expect(await response.text()).toBe("");
    return null;
  }
  const [mediaType] = Object.keys(content);
  expect(response.headers.get("content-type")?.split(";")[0]).toBe(mediaType);
  if (mediaType !== "application/json") return response.body;
  const body: unknown = await response.json();
  let schema = content[mediaType].schema;
  const ref = typeof schema.$ref === "string" ? /^#\/components\/schemas\/(\w+)$/.exec(schema.$ref) : null;
  if (ref !== null) schema = doc.components.schemas[ref[1]];
  const validate = ajv.compile(schema);
  expect(validate(body) ? [] : validate.errors, `${method} ${docPath} ${response.status}: ${JSON.stringify(body)}`).toEqual([]);
  return body;
}

const anonymous = () => ({ "user-agent": "acme-cli/1.0" });

/** `schema` with each of its references to a component schema replaced by that schema. */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as JsonObject).$ref;
  const name = typeof ref === "string" ? /^#\/components\/schemas\/(\w+)$/.exec(ref)?.[1] : undefined;
  if (name !== undefined) return resolved(doc.components.schemas[name]);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolved(value)]));
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1, every route file serves a declared operation, and every operation under /api is in it", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const routeFiles = (readdirSync(path.resolve("app"), { recursive: true }) as string[])
      .filter((file) => path.basename(file) === "route.ts")
      .map((file) => path.posix.join("app", file.split(path.sep).join("/")))
      .sort();
    expect(routeFiles.length).toBeGreaterThan(0);
    expect([...new Set(OPERATIONS.map((operation) => `app${operation.route}/route.ts`))].sort()).toEqual(routeFiles);
    for (const operation of OPERATIONS.filter((candidate) => candidate.route.startsWith("/api/"))) {
      expect(doc.paths[publicPath(operation)]?.[operation.method.toLowerCase()], `${operation.method} ${publicPath(operation)}`).toBeDefined();
    }
  });

  it("has a webhook for every event type and the test event, with the signature's headers and an example of its body", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPE_NAMES, TEST_EVENT_TYPE].sort());
    for (const [type, { post }] of Object.entries(doc.webhooks)) {
      const headers = post.parameters.map(({ $ref }) => doc.components.parameters[$ref.replace("#/components/parameters/", "")]);
      expect(headers.map((header) => [header.name, header.in, header.required]), type).toEqual([
        ["webhook-id", "header", true],
        ["webhook-timestamp", "header", true],
        ["webhook-signature", "header", true],
      ]);
      expect(Object.keys(post.responses), type).toContain("2XX");
      const { schema, example } = post.requestBody.content["application/json"];
      const validate = ajv.compile(resolved(schema) as JsonObject);
      expect(validate(example) ? [] : validate.errors, type).toEqual([]);
      expect(example, type).toMatchObject({ type });
      expect(validate({ ...(example as JsonObject), type: type === TEST_EVENT_TYPE ? "init.approved" : TEST_EVENT_TYPE }), `${type} is its type alone`).toBe(false);
    }
  });

  it("documents its own answer", async () => {
    const response = await openApiRoute(new Request("https://initlink.test/api/openapi.json"), { params: Promise.resolve({}) });
    expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    await expectDocumented("get", "/api/openapi.json", response);
  });
});

describe("real answers validate against the document", () => {
  it("a method a path does not take: 405 with Allow, in the documented error shape", async () => {
    const response = await createInitWithPut(new Request("https://initlink.test/api/init", { method: "PUT" }), { params: Promise.resolve({}) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    const validate = ajv.compile(doc.components.schemas.Error);
    const body = await response.json();
    expect(validate(body) ? [] : validate.errors).toEqual([]);
    expect(body.code).toBe("method_not_allowed");
  });

  it("POST /api/init: 201, and 400, 413, 415", async () => {
    await expectDocumented("post", "/api/init", await createInitJson({ sender: "@acme/cli", sender_device: "laptop", user_code_shown: true }));
    await expectDocumented("post", "/api/init", await createInitJson({}));
    await expectDocumented("post", "/api/init", await createInit("{not json"));
    await expectDocumented("post", "/api/init", await createInit(JSON.stringify({ sender: "x" }), { "content-type": "text/plain" }));
    await expectDocumented("post", "/api/init", await createInitJson({ sender: "x".repeat(20_000) }));
  });

  it("GET /api/init/{id}: 200 pending, held with Prefer: wait, done with the pickup; 401, 404, 429 slow_down", async () => {
    const init = await createdInit();
    await expectDocumented("get", "/api/init/{id}", await getInitStatus(init.id));
    const slowDown = await getInitStatus(init.id);
    expect(slowDown.status).toBe(429);
    await expectDocumented("get", "/api/init/{id}", slowDown);
    await expectDocumented("get", "/api/init/{id}", await getInitStatus(init.id, { authorization: "Bearer ilsec_not-this-init" }));
    await expectDocumented("get", "/api/init/{id}", await getInitStatus("AAAAAAAAAAAAAAAAAAAAAA"));

    const held = await createdInit();
    const heldAnswer = await getInitStatus(held.id, { prefer: "wait=1" });
    expect(heldAnswer.headers.get("preference-applied")).toBe("wait=1");
    await expectDocumented("get", "/api/init/{id}", heldAnswer);

    const person = await newAccount();
    const approved = await createdInit();
    expect((await approve(approved.id, person.token, { project: "new", name: "Docs", code_confirmed: "yes" })).status).toBe(303);
    const pickup = await getInitStatus(approved.id, { authorization: `Bearer ${approved.secret}` });
    const body = (await expectDocumented("get", "/api/init/{id}", pickup)) as { status: string; access_token?: string };
    expect(body.status).toBe("done");
    expect(body.access_token).toMatch(/^ilat_/);
  });

  it("GET /api/init/{id}/events: 200 event stream, 204 after the final event, 404", async () => {
    const init = await createdInit();
    const abort = new AbortController();
    const stream = await dispatch("GET", `/api/init/${init.id}/events`, { headers: anonymous(), signal: abort.signal });
    expect(stream.status).toBe(200);
    const body = (await expectDocumented("get", "/api/init/{id}/events", stream)) as ReadableStream<Uint8Array>;
    const reader = body.getReader();
    let text = "";
    while (!text.includes("\n\nid: pending")) text += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    await reader.cancel();
    await expectDocumented("get", "/api/init/{id}/events", await dispatch("GET", `/api/init/${init.id}/events`, { headers: { ...anonymous(), "last-event-id": "done" } }));
    await expectDocumented("get", "/api/init/{id}/events", await dispatch("GET", "/api/init/AAAAAAAAAAAAAAAAAAAAAA/events", { headers: anonymous() }));
  });

  it("POST /api/projects/{projectId}/link/{iv}: 200; 400, 401 unauthorized and invalid_token, 404, 409", async () => {
    const client = await approvedClient();
    const link = "/api/projects/{projectId}/link/{iv}";
    const iv = randomIv();
    await expectDocumented("post", link, await createLink(client.projectId, iv, withToken(client.accessToken)));
    await expectDocumented("post", link, await createLink(client.projectId, "not-hex", withToken(client.accessToken)));
    await expectDocumented("post", link, await createLink(client.projectId, randomIv(), {}));
    await expectDocumented("post", link, await createLink(client.projectId, randomIv(), withToken("ilat_not-a-token")));
    await expectDocumented("post", link, await createLink("AAAAAAAAAAAAAAAAAAAAAA", randomIv(), withToken(client.accessToken)));
    const other = await approvedClient();
    await expectDocumented("post", link, await createLink(client.projectId, iv, withToken(other.accessToken)));
    // Another token of the same person asking for the same iv: 409 link_conflict.
    const personal = await createAccessToken(client.userId, { name: "laptop", scope: "all", lifetime: "30" });
    const conflict = await createLink(client.projectId, iv, withToken(personal.token));
    expect(conflict.status).toBe(409);
    await expectDocumented("post", link, conflict);
  });

  it("GET /api/projects/{projectId}: 200; 401 unauthorized and invalid_token", async () => {
    const client = await approvedClient();
    const { jwt } = await linked(client.projectId, client.accessToken);
    await expectDocumented("get", "/api/projects/{projectId}", await getProject(client.projectId, withToken(jwt)));
    await expectDocumented("get", "/api/projects/{projectId}", await getProject(client.projectId, {}));
    await expectDocumented("get", "/api/projects/{projectId}", await getProject(client.projectId, withToken("not.a.jwt")));
  });

  it("GET /.well-known/jwks.json, /api/health, /api/live, /api/metrics, and an unknown /api path", async () => {
    await expectDocumented("get", "/.well-known/jwks.json", await dispatch("GET", "/.well-known/jwks.json"));
    await expectDocumented("get", "/api/health", await dispatch("GET", "/api/health"));
    await expectDocumented("get", "/api/live", await dispatch("GET", "/api/live"));
    const scrape = (peer: string) => metricsRoute(new Request("http://localhost:3000/api/metrics", { headers: { [PEER_ADDRESS_HEADER]: peer } }), { params: Promise.resolve({}) });
    await expectDocumented("get", "/api/metrics", await scrape("127.0.0.1"));
    await expectDocumented("get", "/api/metrics", await scrape("192.0.2.10"));
    await expectDocumented("get", "/api/{path}", await unknownApiPath(new Request("https://initlink.test/api/nothing-here"), { params: Promise.resolve({ path: ["nothing-here"] }) }));
  });

  it("the OAuth endpoints: metadata, device authorization, and the token endpoint's answer and each of its errors", async () => {
    await expectDocumented("get", "/.well-known/oauth-authorization-server", await dispatch("GET", "/.well-known/oauth-authorization-server"));
    await expectDocumented("get", "/.well-known/oauth-protected-resource", await dispatch("GET", "/.well-known/oauth-protected-resource"));
    await expectDocumented("post", "/api/oauth/device_authorization", await postDeviceAuthorization({ client_id: "@acme/cli" }));
    await expectDocumented("post", "/api/oauth/device_authorization", await postDeviceAuthorization({}));
    await expectDocumented("post", "/api/oauth/token", await postToken({ grant_type: "password" }));
    await expectDocumented("post", "/api/oauth/token", await postToken({ grant_type: "urn:ietf:params:oauth:grant-type:device_code" }));
    const pending = await deviceAuthorized();
    await expectDocumented("post", "/api/oauth/token", await exchange(pending.device_code));
    await expectDocumented("post", "/api/oauth/token", await exchange(pending.device_code));
    await expectDocumented("post", "/api/oauth/token", await exchange((await deniedDevice()).device_code));
    const approved = await approvedDevice();
    await expectDocumented("post", "/api/oauth/token", await exchange(approved.device_code));
    await expectDocumented("post", "/api/oauth/token", await exchange(approved.device_code));
  });

  it("POST /api/oauth/introspect: 200 for a resource server and an access token; 401 with its Basic or Bearer challenge; 400", async () => {
    const { tokens, userId } = await loggedIn();
    const platform = await resourceServer(userId, [tokens.project_id]);
    const introspect = (authorization: string, fields: Record<string, string> = { token: tokens.access_token }) => postIntrospection(fields, { authorization });
    const active = await expectDocumented("post", "/api/oauth/introspect", await introspect(basicAuthorization(platform)));
    expect(active).toMatchObject({ active: true, account_id: userId });
    await expectDocumented("post", "/api/oauth/introspect", await introspect(`Bearer ${tokens.access_token}`));
    await expectDocumented("post", "/api/oauth/introspect", await introspect(basicAuthorization({ ...platform, clientSecret: "wrong" })));
    await expectDocumented("post", "/api/oauth/introspect", await introspect("Bearer ilat_AudKZwucI6wsqZhncOHqAlRHpNFbChlRx9Cx4zXg4jE"));
    await expectDocumented("post", "/api/oauth/introspect", await introspect(basicAuthorization(platform), {}));
  });
});
