// The deliveries log speaks a fixed vocabulary: whatever the runtime's fetch throws (workerd's
// "Network connection lost.", "internal error; reference = …", a TypeError's text), an attempt records
// one of the documented codes with its fixed message, never the exception's own words.
import { afterEach, describe, expect, it, vi } from "vitest";
import { attemptDelivery, DELIVERY_FAILURES, loggedFailure } from "../../src/webhooks/attempt";

const env = { IMPORT_ALLOWED_PRIVATE_HOSTS: "127.0.0.1:9917" };
const target = { url: "http://127.0.0.1:9917/hooks", secrets: [`whsec_${btoa("k".repeat(32))}`] };
const event = { id: "evt_1", body: "{}" };

afterEach(() => {
  vi.unstubAllGlobals();
});

const attemptWith = (fetch: () => Promise<Response>) => {
  vi.stubGlobal("fetch", vi.fn(fetch));
  return attemptDelivery(env, target, event);
};

describe("a delivery attempt's failure", () => {
  it.each([
    [new TypeError("Network connection lost."), "connection_failed"],
    [new Error("internal error; reference = 5m0dpkp1dqdplfpbv3k4ofsq"), "connection_failed"],
    [new TypeError("fetch failed"), "connection_failed"],
    [new DOMException("The operation was aborted due to timeout", "TimeoutError"), "timeout"],
    [new TypeError("TLS peer's certificate is not trusted; reason = self signed certificate"), "tls_failed"],
    [new TypeError("DNS lookup failed."), "dns_failed"],
  ] as const)("%s is recorded as %s, in the vocabulary's own words", async (thrown, code) => {
    const result = await attemptWith(() => Promise.reject(thrown));
    expect(result).toMatchObject({
      ok: false,
      status: null,
      errorCode: code,
      error: DELIVERY_FAILURES[code],
    });
    expect(result.error).not.toContain(thrown.message);
  });

  it("names the receiver's answers: a status, a redirect not followed", async () => {
    expect(await attemptWith(async () => new Response("no", { status: 500 }))).toMatchObject({
      errorCode: "http_status",
      error: "HTTP 500",
    });
    const moved = await attemptWith(
      async () => new Response(null, { status: 301, headers: { location: "/" } }),
    );
    expect(moved).toMatchObject({ errorCode: "redirect", error: "HTTP 301: redirects are not followed" });
    expect(await attemptWith(async () => new Response(null, { status: 204 }))).toMatchObject({
      ok: true,
      errorCode: null,
      error: null,
    });
  });

  it("refuses a target the guard refuses, with its reason", async () => {
    const result = await attemptDelivery({}, { ...target, url: "http://10.0.0.1/hooks" }, event);
    expect(result).toMatchObject({
      errorCode: "invalid_target",
      error: expect.stringMatching(/^refused URL: /),
    });
  });
});

describe("attempts logged before codes were kept", () => {
  it("are named in the vocabulary, the runtime's words replaced", () => {
    expect(loggedFailure({ error: "could not connect: TypeError: Network connection lost." })).toEqual({
      code: "connection_failed",
      error: DELIVERY_FAILURES.connection_failed,
    });
    expect(loggedFailure({ error: "HTTP 502" })).toEqual({ code: "http_status", error: "HTTP 502" });
    expect(loggedFailure({ error: "HTTP 302: redirects are not followed" }).code).toBe("redirect");
    expect(loggedFailure({ error: "no answer within 10 s" }).code).toBe("timeout");
    expect(loggedFailure({ error: null })).toEqual({ code: null, error: null });
  });
});
