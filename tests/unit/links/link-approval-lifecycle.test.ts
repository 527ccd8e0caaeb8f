import { describe, expect, it } from "vitest";
import { linkApprovalState, waitingNeedsRefresh } from "@/lib/links/link-approval-lifecycle";

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

// A client that keeps asking must never be swept, however short LEGACY_LINK_APPROVAL_SECONDS;
// with a long lifetime a waiting request is written at most once a minute.
describe("waitingNeedsRefresh", () => {
  it("with a 5-minute lifetime, refreshes only after a minute", () => {
    const lifetime = 300_000;
    expect(waitingNeedsRefresh(at(lifetime - 59_000), NOW, lifetime)).toBe(false);
    expect(waitingNeedsRefresh(at(lifetime - 61_000), NOW, lifetime)).toBe(true);
  });

  it("with a 10-second lifetime, refreshes once half of it is gone, long before the sweep", () => {
    const lifetime = 10_000;
    expect(waitingNeedsRefresh(at(6_000), NOW, lifetime)).toBe(false);
    expect(waitingNeedsRefresh(at(4_000), NOW, lifetime)).toBe(true);
    expect(waitingNeedsRefresh(at(1_000), NOW, lifetime)).toBe(true);
  });
});
