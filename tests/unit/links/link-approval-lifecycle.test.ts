import { describe, expect, it } from "vitest";
import { askNeedsRecording, clientIsAsking, linkApprovalState } from "@/lib/links/link-approval-lifecycle";

const NOW = Date.UTC(2026, 10, 23, 12);
const at = (offsetMs: number) => new Date(NOW + offsetMs);

describe("linkApprovalState", () => {
  it("reads a claim under way as the approval it was, an approval past its expiry as expired, and a denial as denied", () => {
    expect(linkApprovalState("approved", at(1000), NOW)).toBe("approved");
    expect(linkApprovalState("claiming", at(1000), NOW)).toBe("approved");
    expect(linkApprovalState("denied", at(1000), NOW)).toBe("denied");
    expect(linkApprovalState("claiming", at(0), NOW)).toBe("expired");
    expect(linkApprovalState("approved", at(-1), NOW)).toBe("expired");
    // A client told its denied link "expired, approve it again" would send the person back.
    expect(linkApprovalState("denied", at(-1), NOW)).toBe("denied");
    expect(linkApprovalState("waiting", at(-1), NOW)).toBe("waiting");
  });
});

// A client that keeps asking must never be swept, however short LEGACY_LINK_APPROVAL_SECONDS,
// and must always be seen asking (a POST within the last minute); with a long lifetime its
// request is written at most every 30 s.
describe("askNeedsRecording", () => {
  it("records a first ask, then with a 5-minute lifetime at most every 30 s", () => {
    const lifetime = 300_000;
    expect(askNeedsRecording(null, NOW, lifetime)).toBe(true);
    expect(askNeedsRecording(at(-29_000), NOW, lifetime)).toBe(false);
    expect(askNeedsRecording(at(-30_000), NOW, lifetime)).toBe(true);
  });

  it("with a 10-second lifetime, records once half of it is gone, long before the sweep", () => {
    const lifetime = 10_000;
    expect(askNeedsRecording(at(-4_000), NOW, lifetime)).toBe(false);
    expect(askNeedsRecording(at(-5_000), NOW, lifetime)).toBe(true);
  });
});

// The person may decide only while a client asks for the (project, iv).
describe("clientIsAsking", () => {
  it("is true for an ask within the last minute only", () => {
    expect(clientIsAsking(null, NOW)).toBe(false);
    expect(clientIsAsking(at(-59_999), NOW)).toBe(true);
    expect(clientIsAsking(at(-60_000), NOW)).toBe(false);
  });
});
