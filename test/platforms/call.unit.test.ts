// How callPlatform classifies every way a platform call can fail: the engine acts on `kind` alone.
import { describe, expect, it } from "vitest";
import { callPlatform, retryAfterSeconds } from "../../src/platforms/call";
import { type Fetch, PlatformError } from "../../src/platforms/types";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

const answering =
  (answer: Response | Error): Fetch =>
  async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  };

/** The PlatformError a call fails with (the test fails if it succeeds or throws anything else). */
async function failureOf(answer: Response | Error, method = "POST"): Promise<PlatformError> {
  const error = await callPlatform(answering(answer), "Test publish", "https://platform.test/posts", {
    method,
  }).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

/** A body that sends a few bytes, then breaks off like a dropped connection. */
const brokenBody = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":'));
    },
    pull(controller) {
      controller.error(new TypeError("Network connection lost."));
    },
  });

describe("callPlatform", () => {
  it("returns the JSON of a 2xx answer", async () => {
    expect(await callPlatform(answering(json({ id: "1" }, 201)), "x", "https://p.test", {})).toEqual({
      id: "1",
    });
  });

  it.each([
    [500, "server_error"],
    [502, "server_error"],
    [503, "server_error"],
  ])("%i is transient (%s)", async (status, code) => {
    expect(await failureOf(json({ error: { message: "down" } }, status))).toMatchObject({
      kind: "transient",
      code,
    });
  });

  it("401 is an auth failure, with the platform's code when it names one", async () => {
    expect(await failureOf(json({ message: "Unauthorized" }, 401))).toMatchObject({
      kind: "auth",
      code: "unauthorized",
    });
    expect(
      await failureOf(json({ error: "invalid_token", error_description: "Expired." }, 401)),
    ).toMatchObject({
      kind: "auth",
      code: "invalid_token",
      message: "Test publish: HTTP 401: Expired.",
    });
  });

  it.each([400, 403, 404, 409, 413, 422])(
    "%i is permanent, quoting the platform's message",
    async (status) => {
      const failure = await failureOf(json({ error: { message: "The text is too long." } }, status));
      expect(failure).toMatchObject({ kind: "permanent", code: "content_rejected" });
      expect(failure.message).toBe(`Test publish: HTTP ${status}: The text is too long.`);
    },
  );

  it("reads the message from each usual field, and the code the platform names", async () => {
    const bodies: Array<[unknown, string]> = [
      [{ error: { message: "from error.message", code: "duplicate_content" } }, "from error.message"],
      [{ message: "from message" }, "from message"],
      [{ error: "invalid_request", error_description: "from error_description" }, "from error_description"],
      [{ title: "Forbidden", detail: "from detail" }, "from detail"],
      [{ title: "from title" }, "from title"],
    ];
    for (const [body, message] of bodies) {
      expect((await failureOf(json(body, 400))).message).toBe(`Test publish: HTTP 400: ${message}`);
    }
    expect((await failureOf(json({ error: { message: "m", code: "duplicate_content" } }, 400))).code).toBe(
      "duplicate_content",
    );
    // Numeric codes (Graph API's 100, X's 187) are not machine codes of ours.
    expect((await failureOf(json({ error: { message: "m", code: 100 } }, 400))).code).toBe(
      "content_rejected",
    );
    expect((await failureOf(new Response("<html>Bad</html>", { status: 400 }))).message).toBe(
      "Test publish: HTTP 400",
    );
  });

  it("cuts the platform's message to 500 characters", async () => {
    const failure = await failureOf(json({ message: "é".repeat(2000) }, 400));
    const quoted = failure.message.slice("Test publish: HTTP 400: ".length);
    expect([...quoted]).toHaveLength(500);
    expect(quoted.endsWith("…")).toBe(true);
  });

  it("429 is rate_limited, waiting as Retry-After says: seconds, an HTTP date, else 60", async () => {
    expect(await failureOf(json({}, 429, { "Retry-After": "2" }))).toMatchObject({
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: 2,
    });
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    const dated = await failureOf(json({}, 429, { "Retry-After": inTwoMinutes }));
    expect(dated.retryAfterSeconds).toBeGreaterThanOrEqual(118);
    expect(dated.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect((await failureOf(json({}, 429))).retryAfterSeconds).toBe(60);
    expect((await failureOf(json({}, 429, { "Retry-After": "soon" }))).retryAfterSeconds).toBe(60);
  });

  it("retryAfterSeconds: delay-seconds, dates relative to now, past dates wait 0", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterSeconds("0", now)).toBe(0);
    expect(retryAfterSeconds(" 30 ", now)).toBe(30);
    expect(retryAfterSeconds("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10);
    expect(retryAfterSeconds("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBe(60);
    expect(retryAfterSeconds("-5", now)).toBe(60);
  });

  it("a network error or a timeout is an unknown outcome after a POST, transient after a GET", async () => {
    const network = () => new TypeError("Network connection lost.");
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(await failureOf(network(), "POST")).toMatchObject({
      kind: "unknown_outcome",
      code: "network_error",
    });
    expect(await failureOf(timeout(), "POST")).toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    expect(await failureOf(network(), "GET")).toMatchObject({ kind: "transient", code: "network_error" });
    expect(await failureOf(timeout(), "GET")).toMatchObject({ kind: "transient", code: "timeout" });
  });

  it("an answer whose body breaks off: unknown after a POST's 2xx, the status otherwise", async () => {
    const cut = (status: number) => new Response(brokenBody(), { status });
    expect(await failureOf(cut(201), "POST")).toMatchObject({
      kind: "unknown_outcome",
      code: "network_error",
    });
    expect(await failureOf(cut(200), "GET")).toMatchObject({ kind: "transient", code: "network_error" });
    expect(await failureOf(cut(400), "POST")).toMatchObject({ kind: "permanent", code: "content_rejected" });
  });

  it("a 2xx that is not JSON: transient after a GET, an unknown outcome after a POST (it was accepted)", async () => {
    const html = () => new Response("<html>OK</html>", { status: 200 });
    expect(await failureOf(html(), "GET")).toMatchObject({ kind: "transient", code: "invalid_response" });
    expect(await failureOf(html(), "POST")).toMatchObject({
      kind: "unknown_outcome",
      code: "invalid_response",
    });
  });

  it("keeps the platform's text out of the OAuth steps' messages", async () => {
    const failure = await callPlatform(
      answering(json({ error: "invalid_grant", error_description: "code abc123 is bad" }, 400)),
      "X token exchange",
      "https://p.test/token",
      { method: "POST" },
      { quoteErrors: false },
    ).catch((error: PlatformError) => error);
    expect(failure).toMatchObject({
      message: "X token exchange: HTTP 400",
      kind: "permanent",
      code: "invalid_grant",
    });
  });
});
