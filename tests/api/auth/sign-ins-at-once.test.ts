import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signInDelayMs } from "@/lib/auth/password-check";
import { sessionUser } from "@/lib/auth/sessions";
import { db } from "@/lib/database/db";
import { changePasswordForm, sessionTokenOf, signIn, signUp } from "../../helpers/forms";
import { randomIv } from "../../helpers/links";
import { registrationOptions } from "../../helpers/passkeys";
import { rateLimitCounter, rateLimitCounters } from "../../helpers/api";
import { startInFreshWindow } from "../../helpers/clock";

// Parallel guessing: the per-account wait limited the latency of each guess, not the number of
// guesses: 40 guesses from 10 addresses ran side by side and finished in 15.6 s. Now at most
// SIGN_INS_AT_ONCE_PER_ACCOUNT password checks run on one account at a time, across instances
// (a lease each in the database), each after its wait; an attempt beyond them gets 429
// rate_limited with Retry-After at once. With the default of 1 and 5 failures before the wait,
// 40 guesses on one account from 10 addresses take at least 1 + 2 + 4 + 8 + 31 × 10 = 325 s.
// This file allows 2 at a time, so that the slots are shown to be counted, not merely one lock.
// The password change and adding a passkey check the password through the same guard, so a
// held session guesses no faster there, nor by spreading its guesses over the forms.
vi.hoisted(() => {
  Object.assign(process.env, {
    SIGN_IN_PER_ADDRESS_PER_MINUTE: "1000",
    SIGN_IN_FAILURES_PER_15_MINUTES: "3",
    SIGN_INS_AT_ONCE_PER_ACCOUNT: "2",
  });
});

const PASSWORD = "correct horse battery";
const from = (address: string) => ({ "x-initlink-peer": address });
const errorOf = (response: Response) => new URL(response.headers.get("location") ?? "", "https://initlink.test").searchParams.get("error");

// The failure windows are 15 minutes: each test starts at the beginning of one.
beforeEach(() => startInFreshWindow(900_000));

afterEach(() => {
  vi.useRealTimers();
});

/**
 * A new account with four failed sign-ins (three from one address, the most it may make): the
 * next password check on the account waits 2 s before it runs, holding its slot all the while.
 */
async function accountThatWaits() {
  const email = `busy-${randomIv()}@example.com`;
  const session = sessionTokenOf(await signUp({ email, password: PASSWORD }, "", from("192.0.2.50")));
  if (session === null) throw new Error("sign-up failed");
  for (let i = 0; i < 3; i++) expect(errorOf(await signIn({ email, password: "wrong password!" }, "", from("192.0.2.51")))).toBe("invalid_credentials");
  expect(errorOf(await signIn({ email, password: "wrong password!" }, "", from("192.0.2.52")))).toBe("invalid_credentials");
  expect(signInDelayMs(4, 3)).toBe(2000);
  return { email, session };
}

/** What a guess of the password got: checked and wrong, refused unchecked, or else. */
async function outcome(response: Response): Promise<string> {
  if (response.status === 303) return errorOf(response) ?? "ok";
  return (await response.json()).code;
}

const counted = (outcomes: string[]) => Object.fromEntries([...new Set(outcomes)].map((value) => [value, outcomes.filter((other) => other === value).length]));

describe("sign-in attempts at once per account (SIGN_INS_AT_ONCE_PER_ACCOUNT=2)", () => {
  it("checks exactly 2 of 50 concurrent guesses from 50 addresses; 48 get rate_limited unchecked", async () => {
    const { email } = await accountThatWaits();
    const guesses = await Promise.all(Array.from({ length: 50 }, (_, i) => signIn({ email, password: `guess number ${i}` }, "", from(`198.51.100.${i + 1}`))));
    const errors = guesses.map(errorOf);
    expect(errors.filter((error) => error === "invalid_credentials")).toHaveLength(2);
    expect(errors.filter((error) => error === "rate_limited")).toHaveLength(48);
    // Only the checked guesses count as failures, and no slot stays taken.
    expect((await rateLimitCounter(`sign-in-failures-account:${email}`))?.count).toBe(6);
    expect(await rateLimitCounters("sign-in-in-flight:")).toEqual([]);
    // The owner, from their own address, still signs in (after the account's wait).
    expect(errorOf(await signIn({ email, password: PASSWORD }, "", from("192.0.2.53")))).toBeNull();
  });

  // A held session guessing the current password on /settings/password gets no more than sign-in would.
  it("checks exactly 2 of 50 concurrent password changes from one session over 50 addresses", async () => {
    const { email, session } = await accountThatWaits();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => changePasswordForm(session, { current_password: `guess number ${i}`, new_password: "the attacker's own password" }, from(`198.51.100.${i + 1}`))),
    );
    expect(counted(await Promise.all(guesses.map(outcome)))).toEqual({ wrong_password: 2, rate_limited: 48 });
    expect((await rateLimitCounter(`sign-in-failures-account:${email}`))?.count).toBe(6);
    expect(await rateLimitCounters("sign-in-in-flight:")).toEqual([]);
    expect(await sessionUser(session)).not.toBeNull();
  });

  // One guard (lib/auth/password-check.ts): the forms that take the password share its slots.
  it("checks exactly 2 of 50 concurrent guesses spread over sign-in, the password change and adding a passkey", async () => {
    const { email, session } = await accountThatWaits();
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const guess = `guess number ${i}`;
        const address = from(`198.51.100.${i + 1}`);
        if (i % 3 === 0) return signIn({ email, password: guess }, "", address);
        if (i % 3 === 1) return changePasswordForm(session, { current_password: guess, new_password: "the attacker's own password" }, address);
        return registrationOptions(session, { current_password: guess }, address);
      }),
    );
    const outcomes = await Promise.all(guesses.map(outcome));
    expect(outcomes.filter((code) => ["invalid_credentials", "wrong_password"].includes(code))).toHaveLength(2);
    expect(outcomes.filter((code) => code === "rate_limited")).toHaveLength(48);
    expect((await rateLimitCounter(`sign-in-failures-account:${email}`))?.count).toBe(6);
    expect(await rateLimitCounters("sign-in-in-flight:")).toEqual([]);
    const prisma = await db();
    expect(await prisma.passkeyChallenge.count({ where: { purpose: "register" } })).toBe(0);
  });
});
