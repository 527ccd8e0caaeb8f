import { describe, expect, it } from "vitest";
import { loggedPath } from "@/server/request-context.mjs";

// With LEGACY_LINK_APPROVAL, whoever knows (project, iv) between approval and claim gets the
// link: the request log keeps neither a query string nor a whole iv.
describe("loggedPath", () => {
  const iv = "b81928294260e0f3121f8840d1d00a8d";

  it("cuts a link's iv to its first 8 characters, on the API route and the page and its forms", () => {
    expect(loggedPath(`/api/projects/Fef8LCO4_oj48ncrB3aHgQ/link/${iv}`)).toBe("/api/projects/Fef8LCO4_oj48ncrB3aHgQ/link/b8192829…");
    expect(loggedPath(`/projects/p/link/${iv}?metadata=e30`)).toBe("/projects/p/link/b8192829…");
    expect(loggedPath(`/projects/p/link/${iv}/approve`)).toBe("/projects/p/link/b8192829…/approve");
  });

  it("drops the query string and leaves other paths as they are", () => {
    expect(loggedPath("/api/init/abc?x=1")).toBe("/api/init/abc");
    expect(loggedPath("/projects/p/links/l1/revoke")).toBe("/projects/p/links/l1/revoke");
    expect(loggedPath("/projects/p/link/short")).toBe("/projects/p/link/short");
  });
});
