import { describe, expect, it } from "vitest";
import { readFormBody } from "@/lib/api/body";

const form = (body: string) => new Request("http://localhost/form", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } });

describe("readFormBody", () => {
  // One rule for every form: a field sent twice keeps its first value.
  it("keeps the first value of a repeated field", async () => {
    expect(await readFormBody(form("project=new&name=a&project=other"))).toEqual({ project: "new", name: "a" });
  });

  it("keeps a field named __proto__ as a plain field, not the prototype", async () => {
    const fields = await readFormBody(form("__proto__=x&a=1"));
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.hasOwn(fields, "__proto__")).toBe(true);
    expect(fields.a).toBe("1");
  });
});
