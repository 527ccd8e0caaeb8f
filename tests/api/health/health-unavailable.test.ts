import { describe, expect, it, vi } from "vitest";
import { dispatch } from "../../helpers/in-process";

// This file points the service at a PostgreSQL server that is not there.
vi.hoisted(() => {
  process.env.DATABASE_URL = "postgresql://initlink@127.0.0.1:1/initlink";
});

describe("GET /api/health without a database", () => {
  it("answers 503 with Retry-After and a clear error, without detail of the failure", async () => {
    const response = await dispatch("GET", "/api/health");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    const body = await response.json();
    expect(body).toEqual({ error: "The database does not answer.", code: "unavailable" });
  });
});
