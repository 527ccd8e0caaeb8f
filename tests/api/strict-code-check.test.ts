import { describe, expect, it, vi } from "vitest";
import { createdInit, getInitStatus } from "../helpers/api";
import { approve, newAccount } from "../helpers/forms";

// This file runs the strict mode: the page does not show the code, the person types it.
vi.hoisted(() => {
  process.env.INIT_CODE_CHECK = "enter";
});

describe("INIT_CODE_CHECK=enter (RFC 8628 §5.4)", () => {
  it("approves when the typed code matches, ignoring case, spaces and dashes", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const typed = ` ${init.user_code.toLowerCase().replace("-", " ")} `;
    const response = await approve(init.id, token, { project: "new", name: "x", user_code: typed });
    expect(response.headers.get("location")).toBe(`https://initlink.test/init/${init.id}`);
    expect((await (await getInitStatus(init.id)).json()).status).toBe("done");
  });

  it("does not accept a mere confirmation in strict mode", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const response = await approve(init.id, token, { project: "new", name: "x", code_confirmed: "yes" });
    expect(response.headers.get("location")).toContain("error=code_mismatch");
  });

  it("denies the init after five wrong codes", async () => {
    const { token } = await newAccount();
    const init = await createdInit();
    const wrong = { project: "new", name: "x", user_code: "AAAA-AAAA" };
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await approve(init.id, token, wrong)).headers.get("location")).toContain("error=code_mismatch");
    }
    expect((await approve(init.id, token, wrong)).headers.get("location")).toContain("error=init_not_pending");
    expect((await (await getInitStatus(init.id)).json()).status).toBe("denied");
    const right = { project: "new", name: "x", user_code: init.user_code };
    expect((await approve(init.id, token, right)).headers.get("location")).toContain("error=init_not_pending");
  });
});
