import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN_TOKEN, admin, call } from "../support/client";
import { createKey, createUser } from "../support/seed";
import { APP_CALLBACK, createApp, ORIGIN, randomState, SESSIONS } from "./support";

const validBody = (fields: Record<string, unknown> = {}) => ({
  platform: "twitter",
  callback_url: APP_CALLBACK,
  state: randomState(),
  ...fields,
});

/** The worker with some env values changed (SANDBOX off, platform credentials, PUBLIC_BASE_URL). */
async function withEnv(overrides: Record<string, string>, key: string, body: unknown) {
  const request = new Request(`${ORIGIN}${SESSIONS}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const res = await worker.fetch(request, { ...env, ...overrides }, createExecutionContext());
  return { status: res.status, body: (await res.json()) as any };
}

describe("POST /api/oauth/delegate/sessions: success", () => {
  it("answers an opaque, single-use authorize_url on the service's own origin and expires_in 900", async () => {
    const app = await createApp();
    const state = randomState();
    const res = await call("POST", SESSIONS, { key: app.key, body: validBody({ state }) });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["authorize_url", "expires_in"]);
    expect(res.body.expires_in).toBe(900);
    expect(res.body.authorize_url).toMatch(
      new RegExp(`^${ORIGIN.replaceAll(".", "\\.")}/api/oauth/delegate/authorize/[A-Za-z0-9_-]{44}$`),
    );
    // Nothing of the request in it: no key, platform, callback URL or state.
    for (const secret of [app.key, app.key.slice(4, 16), "twitter", "app.example.test", state]) {
      expect(new URL(res.body.authorize_url).pathname.split("/").at(-1)).not.toContain(secret);
    }
    expect(res.headers.get("cache-control")).toBe("no-store");
    const other = await call("POST", SESSIONS, { key: app.key, body: validBody({ state }) });
    expect(other.body.authorize_url).not.toBe(res.body.authorize_url);
  });

  it("needs no ability beyond a valid key", async () => {
    const user = await createUser();
    const { key, id } = await createKey(user.id, []);
    await admin("POST", `/api-keys/${id}/signing-secret`);
    const res = await call("POST", SESSIONS, { key, body: validBody() });
    expect(res.status).toBe(200);
  });

  it.each(["tiktok", "instagram", "twitter", "linkedin", "youtube", "facebook", "pinterest", "threads"])(
    "accepts %s while the sandbox is on",
    async (platform) => {
      const app = await createApp();
      const res = await call("POST", SESSIONS, { key: app.key, body: validBody({ platform }) });
      expect(res.status).toBe(200);
    },
  );

  it("builds authorize_url from PUBLIC_BASE_URL when it is set", async () => {
    const app = await createApp();
    const res = await withEnv({ PUBLIC_BASE_URL: "https://public.example.com/" }, app.key, validBody());
    expect(res.status).toBe(200);
    expect(
      res.body.authorize_url.startsWith("https://public.example.com/api/oauth/delegate/authorize/"),
    ).toBe(true);
  });
});

describe("POST /api/oauth/delegate/sessions: authentication errors", () => {
  it("401 missing_api_key without an Authorization header, or with a non-bearer one", async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: "Basic dXNlcjpwYXNz" },
      { authorization: "Bearer " },
    ];
    for (const headers of variants) {
      const res = await call("POST", SESSIONS, { headers, body: validBody() });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "missing_api_key", message: expect.stringContaining("API key") });
    }
  });

  it("401 invalid_api_key for an unknown key and for an absurdly long one", async () => {
    for (const key of ["spk_not-a-real-key", `spk_${"x".repeat(5000)}`]) {
      const res = await call("POST", SESSIONS, { key, body: validBody() });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: "invalid_api_key", message: "The API key is invalid." });
    }
  });

  it("401 invalid_api_key for an expired key", async () => {
    const user = await createUser();
    const { key, id } = await createKey(user.id, ["posts"], new Date(Date.now() - 1000).toISOString());
    await admin("POST", `/api-keys/${id}/signing-secret`);
    const res = await call("POST", SESSIONS, { key, body: validBody() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "invalid_api_key", message: "The API key has expired." });
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("422 no_signing_secret for a key without one, before looking at the body", async () => {
    const user = await createUser();
    const { key } = await createKey(user.id, ["posts"]);
    for (const body of [validBody(), {}]) {
      const res = await call("POST", SESSIONS, { key, body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: "no_signing_secret",
        message: expect.stringContaining("signing secret"),
      });
    }
  });
});

describe("POST /api/oauth/delegate/sessions: platform", () => {
  it.each(["myspace", "Twitter", "x", "__proto__", "toString"])(
    "422 unsupported_platform for %j",
    async (platform) => {
      const app = await createApp();
      const res = await call("POST", SESSIONS, { key: app.key, body: validBody({ platform }) });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("unsupported_platform");
      expect(res.body.message).toContain("is not supported");
      expect(res.body.message).toContain(
        "tiktok, instagram, twitter, linkedin, youtube, facebook, pinterest, threads",
      );
    },
  );

  it("422 unsupported_platform saying 'not configured' for a platform without credentials (sandbox off)", async () => {
    const app = await createApp();
    const res = await withEnv({ SANDBOX: "false" }, app.key, validBody({ platform: "linkedin" }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: "unsupported_platform",
      message:
        'The platform "linkedin" is not configured on this service: its OAuth app credentials are missing.',
    });
    const half = await withEnv(
      { SANDBOX: "false", LINKEDIN_CLIENT_ID: "id-only" },
      app.key,
      validBody({ platform: "linkedin" }),
    );
    expect(half.body.code).toBe("unsupported_platform");
  });

  it("accepts a platform whose credentials are configured while the sandbox is off", async () => {
    const app = await createApp();
    const res = await withEnv(
      { SANDBOX: "false", LINKEDIN_CLIENT_ID: "li-client", LINKEDIN_CLIENT_SECRET: "li-secret" },
      app.key,
      validBody({ platform: "linkedin" }),
    );
    expect(res.status).toBe(200);
  });
});

describe("POST /api/oauth/delegate/sessions: body validation (422 invalid_request)", () => {
  const invalid = async (body: unknown) => {
    const app = await createApp();
    const res = await call("POST", SESSIONS, { key: app.key, body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("invalid_request");
    expect(typeof res.body.message).toBe("string");
    return res.body.errors as Record<string, string[]>;
  };

  it("names every missing field", async () => {
    expect(await invalid({})).toEqual({
      platform: ["The platform field is required."],
      callback_url: ["The callback url field is required."],
      state: ["The state field is required."],
    });
  });

  it("rejects wrong types", async () => {
    const errors = await invalid({ platform: 42, callback_url: ["x"], state: { a: 1 } });
    expect(errors).toEqual({
      platform: ["The platform field must be a string."],
      callback_url: ["The callback url field must be a string."],
      state: ["The state field must be a string."],
    });
  });

  it("rejects an empty platform", async () => {
    expect((await invalid(validBody({ platform: "" }))).platform).toEqual([
      "The platform field is required.",
    ]);
  });

  it.each([
    ["a relative URL", "/oauth/callback", "must be an absolute URL."],
    ["not a URL", "not a url", "must be an absolute URL."],
    ["an ftp URL", "ftp://app.example.test/cb", "must use https"],
    ["a javascript: URL", "javascript:alert(1)", "must use https"],
    ["plain http to a public host", "http://app.example.test/cb", "must use https"],
    [
      "plain http to a host that only starts like localhost",
      "http://localhost.example.test/cb",
      "must use https",
    ],
    ["a user name", "https://user@app.example.test/cb", "must not contain a user name or password."],
    [
      "a user name and password",
      "https://user:pw@app.example.test/cb",
      "must not contain a user name or password.",
    ],
    ["a fragment", "https://app.example.test/cb#done", "must not contain a fragment (#)."],
    ["an empty fragment", "https://app.example.test/cb#", "must not contain a fragment (#)."],
    ["a state parameter already", "https://app.example.test/cb?state=x", "already contain the parameters"],
    ["a sig parameter already", "https://app.example.test/cb?a=1&sig=x", "already contain the parameters"],
  ])("rejects a callback_url with %s", async (_, callback_url, message) => {
    const errors = await invalid(validBody({ callback_url }));
    expect(Object.keys(errors)).toEqual(["callback_url"]);
    expect(errors.callback_url![0]).toContain(message);
    expect(errors.callback_url![0]!.startsWith("The callback url ")).toBe(true);
  });

  it("rejects a callback_url longer than 2048 characters", async () => {
    const callback_url = `https://app.example.test/${"a".repeat(2030)}`;
    expect((await invalid(validBody({ callback_url }))).callback_url).toEqual([
      "The callback url field must not be greater than 2048 characters.",
    ]);
  });

  it.each([
    "https://app.example.test/cb",
    "https://app.example.test:8443/cb?session=1&lang=en",
    "http://localhost:3000/cb",
    "http://127.0.0.1/cb",
    "http://127.10.0.3:8080/cb",
    "http://[::1]:9999/cb",
  ])("accepts the callback_url %s", async (callback_url) => {
    const app = await createApp();
    const res = await call("POST", SESSIONS, { key: app.key, body: validBody({ callback_url }) });
    expect(res.status).toBe(200);
  });

  it("takes state of 1 to 512 characters, counted as characters, not bytes", async () => {
    expect((await invalid(validBody({ state: "" }))).state).toEqual(["The state field is required."]);
    expect((await invalid(validBody({ state: "s".repeat(513) }))).state).toEqual([
      "The state field must not be greater than 512 characters.",
    ]);
    expect((await invalid(validBody({ state: "\ud800" }))).state).toEqual([
      "The state field must be valid Unicode text.",
    ]);
    const app = await createApp();
    for (const state of ["s", "s".repeat(512), "é".repeat(512), "😀".repeat(512)]) {
      const res = await call("POST", SESSIONS, { key: app.key, body: validBody({ state }) });
      expect(res.status).toBe(200);
    }
  });

  it("400 invalid_request for malformed JSON or a body that is not an object, 415 for a non-JSON body", async () => {
    const app = await createApp();
    for (const rawBody of ["{nope", "[1]", '"text"', "null"]) {
      const res = await call("POST", SESSIONS, {
        key: app.key,
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_request");
    }
    const form = await call("POST", SESSIONS, {
      key: app.key,
      rawBody: "platform=twitter",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({
      code: "invalid_request",
      message: "The request body must be sent as application/json.",
    });
  });
});

describe("POST /api/oauth/delegate/sessions: rate limit", () => {
  it("counts against the user's 60/min with the X-RateLimit headers, then 429 rate_limited", async () => {
    const user = await createUser();
    const { key } = await createKey(user.id, ["posts"]);
    const answers = await Promise.all(
      Array.from({ length: 61 }, () => call("POST", SESSIONS, { key, body: validBody() })),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(1);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(60);
    for (const a of answers) expect(a.headers.get("x-ratelimit-limit")).toBe("60");
    expect(refused[0]!.body).toEqual({ code: "rate_limited", message: "Too Many Attempts." });
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // The same budget as API v1.
    const v1 = await call("GET", "/api/v1/workspaces", { key });
    expect(v1.status).toBe(429);
  });

  it("shows the remaining budget on a successful answer", async () => {
    const app = await createApp();
    const res = await call("POST", SESSIONS, { key: app.key, body: validBody() });
    expect(res.headers.get("x-ratelimit-remaining")).toBe("59");
    expect(res.headers.get("server-timing")).toMatch(/gate;dur=/);
  });
});

describe("other methods and the admin token", () => {
  it("does not accept the admin token as an API key", async () => {
    const res = await call("POST", SESSIONS, { key: ADMIN_TOKEN, body: validBody() });
    expect(res.body.code).toBe("invalid_api_key");
  });

  it("405 with Allow for GET on the session endpoint", async () => {
    const res = await call("GET", SESSIONS);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});
