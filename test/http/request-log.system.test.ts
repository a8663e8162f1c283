// Issue 10, item 7: logs never carry a URL's query (delegation codes and states, link signatures). The
// platform's invocation logs are off (wrangler.toml); the worker logs each request without its query.
import { afterEach, describe, expect, it, vi } from "vitest";
import { redactedPath } from "../../src/http/request-log";
import { call } from "../support/client";

afterEach(() => vi.restoreAllMocks());

describe("the request log", () => {
  it("logs method, path, status and time, never the query", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    await call("GET", "/api/oauth/delegate/callback?state=abc.def&code=SECRET-CODE");
    await call("GET", "/media/1?expires=1&sig=SECRET-SIG");
    const lines = info.mock.calls.map(([line]) => String(line));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      method: "GET",
      path: "/api/oauth/delegate/callback?…",
      status: 400,
    });
    expect(lines.join("\n")).not.toMatch(/SECRET|code=|sig=|state=/);
  });

  it("redacts any query", () => {
    expect(redactedPath("https://x.test/a/b?token=1")).toBe("/a/b?…");
    expect(redactedPath("https://x.test/a/b")).toBe("/a/b");
  });
});
