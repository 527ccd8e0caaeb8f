import { describe, expect, it } from "vitest";
import { GET as healthRoute } from "@/app/api/health/route";

describe("GET /api/health", () => {
  it("answers 200 when the database answers", async () => {
    const response = await healthRoute(new Request("http://localhost:3000/api/health"), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ok: true, database: "up" });
  });
});
