import { describe, expect, it } from "vitest";
import { clientSoftware } from "@/lib/links/client-software";

// The project page names a linked client's software briefly, never by its raw User-Agent.
describe("clientSoftware", () => {
  it.each([
    ["curl/8.5.0", "curl 8.5.0"],
    ["node", "node"],
    ["python-requests/2.31.0", "python-requests 2.31.0"],
    ["initlink-cli/0.1.0 (linux; x64) node/20.19.0", "initlink-cli 0.1.0"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox 128 on Linux"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Chrome 131 on macOS"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "Edge 131 on Windows"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1", "Safari 17 on iOS"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36", "Chrome 131 on Android"],
    ["Mozilla/5.0 (compatible; SomeBot/1.0)", "Mozilla 5.0"],
    [`x/${"9".repeat(100)}`, `x ${"9".repeat(58)}`],
    ["   ", null],
    ["(no product)", null],
    [null, null],
  ])("%j → %j", (userAgent, expected) => {
    expect(clientSoftware(userAgent)).toBe(expected);
  });
});
