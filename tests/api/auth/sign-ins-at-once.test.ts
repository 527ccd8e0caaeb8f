import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signInDelayMs } from "@/lib/auth/sign-in";
import { signIn, signUp } from "../../helpers/forms";
import { randomIv } from "../../helpers/links";
import { rateLimitCounter, rateLimitCounters } from "../../helpers/api";
import { startInFreshWindow } from "../../helpers/clock";

// Issue 14, item 4: the per-account wait limited the latency of each guess, not the number of
// guesses: 40 guesses from 10 addresses ran side by side and finished in 15.6 s. Now at most
// SIGN_INS_AT_ONCE_PER_ACCOUNT password checks run on one account at a time, across instances
// (a lease each in the database), each after its wait; an attempt beyond them gets 429
// rate_limited with Retry-After at once. With the default of 1 and 5 failures before the wait,
// 40 guesses on one account from 10 addresses take at least 1 + 2 + 4 + 8 + 31 × 10 = 325 s.
// This file allows 2 at a time, so that the slots are shown to be counted, not merely one lock.
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

describe("sign-in attempts at once per account (SIGN_INS_AT_ONCE_PER_ACCOUNT=2)", () => {
  it("checks exactly 2 of 50 concurrent guesses from 50 addresses; 48 get rate_limited unchecked", async () => {
    const email = `busy-${randomIv()}@example.com`;
    expect(errorOf(await signUp({ email, password: PASSWORD }, "", from("192.0.2.50")))).toBeNull();
    // Four failures first (three from one address, the most it may make): the next attempt
    // on the account waits 2 s before its password check, holding its slot all the while.
    for (let i = 0; i < 3; i++) expect(errorOf(await signIn({ email, password: "wrong password!" }, "", from("192.0.2.51")))).toBe("invalid_credentials");
    expect(errorOf(await signIn({ email, password: "wrong password!" }, "", from("192.0.2.52")))).toBe("invalid_credentials");
    expect(signInDelayMs(4, 3)).toBe(2000);
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
});
