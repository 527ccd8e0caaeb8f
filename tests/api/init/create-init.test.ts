import { describe, expect, it } from "vitest";
import { db } from "@/lib/database/db";
import { hashSecret, RANDOM_ID_PATTERN } from "@/lib/secrets";
import { createInit, createInitJson, createdInit, databaseSnapshot } from "../../helpers/api";

describe("POST /api/init — Create Init", () => {
  it("answers 201 with the init, its URLs built from APP_URL, and Location equal to url", async () => {
    const before = Date.now();
    const response = await createInitJson({ sender: "@acme/cli", sender_device: "work laptop", sender_ip: "192.0.2.7" });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["expires_at", "id", "interval", "redirect_url", "secret", "timestamp", "url", "user_code"]);
    expect(body.id).toMatch(RANDOM_ID_PATTERN);
    expect(body.url).toBe(`https://initlink.test/api/init/${body.id}`);
    expect(body.redirect_url).toBe(`https://initlink.test/init/${body.id}`);
    expect(response.headers.get("location")).toBe(body.url);
    expect(body.interval).toBe(5000);
    expect(body.timestamp).toBeGreaterThanOrEqual(before);
    expect(body.timestamp).toBeLessThanOrEqual(Date.now());
    expect(body.expires_at).toBe(body.timestamp + 900_000);
    expect(body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(body.secret).toMatch(/^ilsec_[A-Za-z0-9_-]{43}$/);
  });

  // A forged Host must not turn redirect_url into a phishing link.
  it("ignores Host and X-Forwarded-Host when building URLs", async () => {
    const response = await createInitJson({ sender: "@acme/cli" }, { host: "evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" });
    const body = await response.json();
    expect(body.redirect_url.startsWith("https://initlink.test/init/")).toBe(true);
    expect(body.url.startsWith("https://initlink.test/api/init/")).toBe(true);
  });

  it("stores what the client reported, the observed address and user agent, and only a hash of the secret", async () => {
    const body = await createdInit({ sender: "  @acme/cli  ", sender_device: " laptop ", sender_os: "linux", sender_ip: "2001:db8::1", binding_message: " Deploy web ", extra: { ignored: true } });
    const prisma = await db();
    const row = await prisma.init.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({
      sender: "@acme/cli",
      senderDevice: "laptop",
      senderOs: "linux",
      senderIp: "2001:db8::1",
      bindingMessage: "Deploy web",
      observedIp: "127.0.0.1",
      observedUserAgent: "acme-cli/1.0",
      status: "pending",
      userCode: body.user_code,
      secretHash: hashSecret(body.secret),
    });
    expect(JSON.stringify(row)).not.toContain(body.secret);
  });

  // The row is written by one raw INSERT (lib/init/init-group-commit.ts): every column must read
  // back, and compare in Prisma's own queries, as if Prisma had written it (on SQLite a timestamp
  // is text compared as text, a boolean a number).
  it("stores each column as Prisma does: its queries find the init by its times and flags", async () => {
    const body = await createdInit({ sender: "@acme/cli", user_code_shown: true });
    const prisma = await db();
    const row = await prisma.init.findUniqueOrThrow({ where: { id: body.id } });
    expect(row).toMatchObject({ createdAt: new Date(body.timestamp), expiresAt: new Date(body.expires_at), intervalMs: 5000, userCodeShown: true, codeAttempts: 0, wrongCodes: 0, decidedAt: null, projectId: null });
    const found = (where: object) => prisma.init.count({ where: { id: body.id, ...where } });
    expect(await found({ createdAt: new Date(body.timestamp), expiresAt: new Date(body.expires_at), userCodeShown: true })).toBe(1);
    expect(await found({ createdAt: { lt: new Date(body.timestamp + 1) }, expiresAt: { gt: new Date(body.expires_at - 1) } })).toBe(1);
    expect(await found({ expiresAt: { lt: new Date(body.expires_at) } })).toBe(0);
    expect(await found({ userCodeShown: false })).toBe(0);
    // And a row Prisma writes itself reads the same way beside it.
    const prismaRow = await prisma.init.create({ data: { ...row, id: `${row.id}x`, secretHash: `${row.secretHash}x` } });
    expect(await prisma.init.count({ where: { id: { in: [row.id, prismaRow.id] }, createdAt: row.createdAt, expiresAt: row.expiresAt, userCodeShown: true } })).toBe(2);
  });

  // Inits that arrive together share one commit (lib/init/init-group-commit.ts): each must still
  // be answered with its own row, durable before its 201, and none mixed up with another.
  it("answers 60 concurrent creations each with its own stored row", async () => {
    const senders = Array.from({ length: 60 }, (_, i) => `@acme/cli-${i}`);
    const created = await Promise.all(senders.map((sender) => createdInit({ sender, sender_device: `device ${sender}` })));
    const prisma = await db();
    const rows = await prisma.init.findMany({ where: { id: { in: created.map((each) => each.id) } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(new Set(created.map((each) => each.id)).size).toBe(60);
    created.forEach((body, i) => {
      expect(byId.get(body.id)).toMatchObject({ sender: senders[i], senderDevice: `device ${senders[i]}`, userCode: body.user_code, secretHash: hashSecret(body.secret), status: "pending" });
    });
  });

  it("takes the observed address from the TCP peer, not from a client-sent X-Forwarded-For", async () => {
    const body = await (await createInitJson({ sender: "@acme/cli" }, { "x-forwarded-for": "203.0.113.9" })).json();
    const prisma = await db();
    expect((await prisma.init.findUniqueOrThrow({ where: { id: body.id } })).observedIp).toBe("127.0.0.1");
  });

  it("treats absent, null and blank optional fields as not reported", async () => {
    const body = await createdInit({ sender: "@acme/cli", sender_device: null, sender_os: "   " });
    const prisma = await db();
    const row = await prisma.init.findUniqueOrThrow({ where: { id: body.id } });
    expect([row.senderDevice, row.senderOs, row.senderIp]).toEqual([null, null, null]);
  });

  it("gives every init a different id, code and secret", async () => {
    const inits = await Promise.all(Array.from({ length: 20 }, () => createdInit()));
    expect(new Set(inits.map((init) => init.id)).size).toBe(20);
    expect(new Set(inits.map((init) => init.secret)).size).toBe(20);
  });

  // Existing clients send JSON through fetch() with no Content-Type or with text/plain.
  it.each([
    ["no Content-Type", {}],
    ["text/plain", { "content-type": "text/plain;charset=UTF-8" }],
    ["application/json with charset", { "content-type": "application/json; charset=utf-8" }],
  ])("accepts a JSON body sent with %s", async (_label, headers) => {
    const response = await createInit(JSON.stringify({ sender: "@acme/cli" }), headers);
    expect(response.status).toBe(201);
  });
});

describe("POST /api/init — rejections write nothing", () => {
  const long = (n: number) => "a".repeat(n);
  const cases: [string, () => Promise<Response>, number, string, string[]][] = [
    ["a form-encoded body", () => createInit("sender=x", { "content-type": "application/x-www-form-urlencoded" }), 415, "unsupported_media_type", []],
    ["a multipart body", () => createInit("x", { "content-type": "multipart/form-data; boundary=x" }), 415, "unsupported_media_type", []],
    ["invalid JSON", () => createInit("{sender:", { "content-type": "application/json" }), 400, "invalid_json", []],
    ["an empty body", () => createInit(null, { "content-type": "application/json" }), 400, "invalid_json", []],
    ["a JSON array", () => createInitJson([{ sender: "x" }]), 400, "invalid_request", ["(body)"]],
    ["a JSON string", () => createInitJson("x"), 400, "invalid_request", ["(body)"]],
    ["JSON null", () => createInitJson(null), 400, "invalid_request", ["(body)"]],
    ["no sender", () => createInitJson({ sender_device: "x" }), 400, "invalid_request", ["sender"]],
    ["an empty sender", () => createInitJson({ sender: "" }), 400, "invalid_request", ["sender"]],
    ["a blank sender", () => createInitJson({ sender: "   " }), 400, "invalid_request", ["sender"]],
    ["a numeric sender", () => createInitJson({ sender: 42 }), 400, "invalid_request", ["sender"]],
    ["a sender over 200 characters", () => createInitJson({ sender: long(201) }), 400, "invalid_request", ["sender"]],
    ["a newline in sender", () => createInitJson({ sender: "acme\ncli" }), 400, "invalid_request", ["sender"]],
    ["a NUL in sender_device", () => createInitJson({ sender: "x", sender_device: "a\u0000b" }), 400, "invalid_request", ["sender_device"]],
    ["a right-to-left override in sender_device", () => createInitJson({ sender: "x", sender_device: "pot\u202Egnp.exe" }), 400, "invalid_request", ["sender_device"]],
    ["a sender_device over 200 characters", () => createInitJson({ sender: "x", sender_device: long(201) }), 400, "invalid_request", ["sender_device"]],
    ["a sender_os over 100 characters", () => createInitJson({ sender: "x", sender_os: long(101) }), 400, "invalid_request", ["sender_os"]],
    ["a binding_message over 140 characters", () => createInitJson({ sender: "x", binding_message: long(141) }), 400, "invalid_request", ["binding_message"]],
    ["a newline in binding_message", () => createInitJson({ sender: "x", binding_message: "Deploy\nApprove now" }), 400, "invalid_request", ["binding_message"]],
    // A reported address that is not an address ("Unknown") is reported text: tests/api/compat/compat-clients.test.ts.
    ["a sender_ip over 45 characters", () => createInitJson({ sender: "x", sender_ip: long(46) }), 400, "invalid_request", ["sender_ip"]],
    ["a newline in sender_ip", () => createInitJson({ sender: "x", sender_ip: "192.0.2.1\nUnknown" }), 400, "invalid_request", ["sender_ip"]],
    ["a numeric sender_ip", () => createInitJson({ sender: "x", sender_ip: 127001 }), 400, "invalid_request", ["sender_ip"]],
    ["several bad fields at once", () => createInitJson({ sender: "", sender_ip: 7 }), 400, "invalid_request", ["sender", "sender_ip"]],
  ];

  it.each(cases)("rejects %s", async (_label, send, status, code, fields) => {
    const before = await databaseSnapshot();
    const response = await send();
    expect(response.status).toBe(status);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.code).toBe(code);
    expect(typeof body.error).toBe("string");
    expect(body.error.length).toBeGreaterThan(0);
    if (fields.length > 0) expect(body.fields.map((problem: { field: string }) => problem.field)).toEqual(fields);
    expect(await databaseSnapshot()).toEqual(before);
  });

  it("rejects a body over 16 KiB by its Content-Length with 413", async () => {
    const before = await databaseSnapshot();
    const body = JSON.stringify({ sender: "x", padding: long(17 * 1024) });
    const response = await createInit(body, { "content-type": "application/json", "content-length": String(body.length) });
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe("payload_too_large");
    expect(await databaseSnapshot()).toEqual(before);
  });

  // A chunked body without Content-Length is cut off as soon as it passes the limit.
  it("stops reading a streamed body once it passes 16 KiB", async () => {
    let chunksPulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunksPulled += 1;
        controller.enqueue(new Uint8Array(4096).fill(0x20));
        if (chunksPulled === 1000) controller.close();
      },
    });
    const response = await createInit(stream as unknown as BodyInit, { "content-type": "application/json" });
    expect(response.status).toBe(413);
    expect(chunksPulled).toBeLessThan(20);
  });

  it("refuses a lone UTF-16 surrogate (valid JSON, not text) with 400 instead of failing in the database", async () => {
    const before = await databaseSnapshot();
    for (const body of ['{"sender":"!","sender_device":"x\\ud83d"}', '{"sender":"\\udc00"}', '{"sender":"a","sender_os":"\\ud800\\ud800"}']) {
      const response = await createInit(body, { "content-type": "application/json" });
      expect(response.status).toBe(400);
      expect((await response.json()).code).toBe("invalid_request");
    }
    expect(await databaseSnapshot()).toEqual(before);
  });
});
