import { describe, expect, it } from "vitest";
import { dispatch } from "../../helpers/in-process";

describe("GET /api/health", () => {
  it("answers 200 when the database answers", async () => {
    const response = await dispatch("GET", "/api/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ ok: true, database: "up" });
  });
});
