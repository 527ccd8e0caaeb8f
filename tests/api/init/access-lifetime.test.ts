import { describe, expect, it } from "vitest";
import { listActivity } from "@/lib/activity/list-activity";
import { config } from "@/lib/config";
import { db } from "@/lib/database/db";
import { accessExpiresAt, chosenAccessLifetime, lifetimeText } from "@/lib/init/access-lifetime";
import { listProjectLinks } from "@/lib/links/manage-links";
import { hashSecret } from "@/lib/secrets";
import { createdInit, getInitStatus } from "../../helpers/api";
import { approve, newAccount } from "../../helpers/forms";
import { linked } from "../../helpers/links";
import { deviceAuthorized, exchange } from "../../helpers/oauth";

// The approving person chooses how long the client's access lasts, among
// ACCESS_LIFETIME_CHOICES (default 1h, 1d, 30d and ACCESS_TOKEN_LIFETIME_DAYS, 90d, preselected);
// the client learns it at the pickup and at the token endpoint; the activity records it.

const HOUR_MS = 3_600_000;
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");
const withSecret = (secret: string) => ({ authorization: `Bearer ${secret}` });

async function approvedFor(lifetime: string | undefined) {
  const person = await newAccount();
  const init = await createdInit({ sender: "@acme/cli", sender_device: "laptop" });
  const fields = { project: "new", name: "Lifetimes", code_confirmed: "yes", ...(lifetime === undefined ? {} : { access_lifetime: lifetime }) };
  const answer = await approve(init.id, person.token, fields);
  return { person, init, error: errorOf(answer) };
}

describe("the access lifetime the person chooses", () => {
  it("gives the pickup's token the chosen lifetime, and says it as expires_at and expires_in", async () => {
    const { person, init, error } = await approvedFor("1h");
    expect(error).toBeNull();
    const before = Date.now();
    const pickup = await (await getInitStatus(init.id, withSecret(init.secret))).json();
    expect(pickup.access_token_expires_at).toBeGreaterThanOrEqual(before + HOUR_MS);
    expect(pickup.access_token_expires_at).toBeLessThanOrEqual(Date.now() + HOUR_MS);
    expect(pickup.access_token_expires_in).toBeGreaterThanOrEqual(3599);
    expect(pickup.access_token_expires_in).toBeLessThanOrEqual(3600);
    const prisma = await db();
    const token = await prisma.accessToken.findUniqueOrThrow({ where: { tokenHash: hashSecret(pickup.access_token) } });
    expect(token.expiresAt?.getTime()).toBe(pickup.access_token_expires_at);
    expect(await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { accessLifetimeSeconds: true } })).toEqual({ accessLifetimeSeconds: 3600 });
    // The project page says until when the linked client has access.
    const link = await linked(init.id, pickup.access_token);
    const user = await prisma.user.findUniqueOrThrow({ where: { email: person.email }, select: { id: true } });
    const listed = await listProjectLinks(user.id, init.id);
    expect(listed.find((entry) => entry.id === link.link_id)?.accessUntil?.getTime()).toBe(pickup.access_token_expires_at);
  });

  it("preselects ACCESS_TOKEN_LIFETIME_DAYS when the form names none (a form from before the choice)", async () => {
    const { init, error } = await approvedFor(undefined);
    expect(error).toBeNull();
    const pickup = await (await getInitStatus(init.id, withSecret(init.secret))).json();
    expect(pickup.access_token_expires_in).toBeGreaterThan(90 * 86_400 - 5);
    expect(pickup.access_token_expires_in).toBeLessThanOrEqual(90 * 86_400);
  });

  it("refuses a lifetime not among the choices with invalid_request, writing nothing", async () => {
    for (const lifetime of ["2h", "91d", "", "forever", "1H "]) {
      const { init, error } = await approvedFor(lifetime);
      // Case and surrounding spaces are forgiven; anything else is refused.
      if (lifetime === "1H ") {
        expect(error).toBeNull();
        continue;
      }
      expect(error).toBe("invalid_request");
      const prisma = await db();
      expect(await prisma.init.findUniqueOrThrow({ where: { id: init.id }, select: { status: true, accessLifetimeSeconds: true, codeAttempts: true } })).toEqual({
        status: "pending",
        accessLifetimeSeconds: null,
        codeAttempts: 0,
      });
    }
    expect(() => chosenAccessLifetime(config(), "2h")).toThrow("access_lifetime must be one of 1h, 1d, 30d, 90d.");
  });

  it("gives the device-code grant's token the chosen lifetime as expires_in (RFC 6749 §5.1)", async () => {
    const device = await deviceAuthorized();
    const person = await newAccount();
    expect(errorOf(await approve(device.initId, person.token, { project: "new", name: "Device", user_code: device.user_code, access_lifetime: "1d" }))).toBeNull();
    const answer = await (await exchange(device.device_code)).json();
    expect(answer.expires_in).toBeGreaterThanOrEqual(86_399);
    expect(answer.expires_in).toBeLessThanOrEqual(86_400);
  });

  it("records the chosen lifetime with the approval in the activity", async () => {
    const { person, init } = await approvedFor("30d");
    const prisma = await db();
    const user = await prisma.user.findUniqueOrThrow({ where: { email: person.email }, select: { id: true } });
    const approval = (await listActivity(user.id, undefined)).entries.find((entry) => entry.kind === "init_approved" && entry.subjectId === init.id);
    expect(approval?.accessLifetimeSeconds).toBe(30 * 86_400);
  });

  it("computes every expiry in one function, never past the longest choice configured now", () => {
    const cfg = config();
    const issuedAt = new Date(1_764_000_000_000);
    expect(accessExpiresAt(cfg, 3600, issuedAt).getTime()).toBe(issuedAt.getTime() + HOUR_MS);
    expect(accessExpiresAt(cfg, null, issuedAt).getTime()).toBe(issuedAt.getTime() + 90 * 24 * HOUR_MS);
    // Chosen when the maximum was longer: the maximum now.
    expect(accessExpiresAt(cfg, 365 * 86_400, issuedAt).getTime()).toBe(issuedAt.getTime() + 90 * 24 * HOUR_MS);
    expect([HOUR_MS, 24 * HOUR_MS, 2 * HOUR_MS, 30 * 24 * HOUR_MS].map(lifetimeText)).toEqual(["1 hour", "1 day", "2 hours", "30 days"]);
  });
});
