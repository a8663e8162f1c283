// Issue 10, the sandbox items: bad input is a 4xx (never a 500), codes are single use and bound to their
// client and redirect URI, access tokens expire and refresh like the platform's, and the consent form
// only ever sends the browser back to the service's own origin.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { LINKEDIN_VERSION } from "../../src/platforms/linkedin/api";
import { sandboxClient } from "../../src/platforms/sandbox/credentials";
import { CODE_PURPOSE, seal, TOKEN_PURPOSE } from "../../src/platforms/sandbox/seal";
import { sandboxPlatformId } from "../../src/sandbox/emulators";
import { SANDBOX_LIMITS } from "../../src/sandbox/ledger";
import { Browser, createApp, createSession, locationOf, runFlow } from "../delegation/support";
import {
  accessTokenOf,
  codeFor,
  consentAction,
  exchange,
  formPost,
  oauthFailure,
  REDIRECT_URI,
  tokenRequest,
} from "../platforms/oauth";
import { freshHandle, send } from "../platforms/support";
import { ORIGIN } from "../support/client";

afterEach(() => vi.restoreAllMocks());

const HOUR_MS = 3_600_000;
const bytes = (...values: number[]) => new Uint8Array(values);

/** Bodies no parser should choke on: each is answered with a 4xx. */
const MALFORMED_BODIES: Array<[string, string, BodyInit]> = [
  ["multipart with a broken part", "multipart/form-data; boundary=xyz", "--xyz\r\ngarbage without end"],
  ["multipart without a boundary", "multipart/form-data", "--a\r\n\r\n--a--"],
  ["urlencoded with broken escapes", "application/x-www-form-urlencoded", "a=%E0%A4%A&%=%&handle=%FF"],
  ["urlencoded that is not UTF-8", "application/x-www-form-urlencoded", bytes(0x68, 0x3d, 0xff, 0xfe, 0x26)],
  ["JSON", "application/json", '{"grant_type":"authorization_code"}'],
  ["no content type", "", "grant_type=authorization_code"],
  ["a megabyte of form", "application/x-www-form-urlencoded", `handle=${"h".repeat(1_048_576)}`],
];

const post = (path: string, contentType: string, body: BodyInit, headers: Record<string, string> = {}) =>
  send(path, {
    method: "POST",
    headers: contentType ? { "content-type": contentType, ...headers } : headers,
    body,
  });

describe("item 1: the token endpoint answers bad input like an OAuth server", () => {
  it.each([
    ["not base64", "Basic !!!notb64"],
    ["of a length base64 cannot have", "Basic abcde"],
    ["without a colon", `Basic ${btoa("sandbox-twitter-client")}`],
    ["the right id, another secret", `Basic ${btoa("sandbox-twitter-client:nope")}`],
  ])("a Basic header %s: 401 invalid_client", async (_, authorization) => {
    const res = await post(
      "/sandbox/twitter/oauth/token",
      "application/x-www-form-urlencoded",
      "grant_type=authorization_code&code=x",
      { authorization },
    );
    expect(await oauthFailure(res)).toEqual({ status: 401, error: "invalid_client" });
  });

  it.each(MALFORMED_BODIES)("a body that is %s: 400 invalid_request", async (_, contentType, body) => {
    const res = await post("/sandbox/linkedin/oauth/token", contentType, body);
    expect(await oauthFailure(res)).toEqual({ status: 400, error: "invalid_request" });
  });

  it("a code far too long, or not one of the sandbox's: 400 invalid_grant", async () => {
    for (const code of ["x".repeat(10_000), "not.a.code", "%FF%FE"]) {
      const res = await tokenRequest("linkedin", {
        grant_type: "authorization_code",
        code,
        redirect_uri: REDIRECT_URI,
      });
      expect(await oauthFailure(res)).toEqual({ status: 400, error: "invalid_grant" });
    }
  });

  it("a GET is not a token request", async () => {
    const res = await send("/sandbox/facebook/oauth/token?grant_type=authorization_code&code=x");
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("item 1: the consent form and the other sandbox routes never 500", () => {
  const small = MALFORMED_BODIES.filter(([name]) => name !== "a megabyte of form");
  it.each(small)("a consent form body that is %s: a 400 page", async (_, contentType, body) => {
    const res = await post(await consentAction("linkedin"), contentType, body);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("location")).toBeNull();
  });

  it("a consent form body of a megabyte: refused before it is read, 413 (test/security/body-limits.test.ts)", async () => {
    const [, contentType, body] = MALFORMED_BODIES.find(([name]) => name === "a megabyte of form")!;
    const res = await post(await consentAction("linkedin"), contentType, body);
    expect(res.status).toBe(413);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.json()).toEqual({ message: "The request body is too large." });
  });

  it("authorize requests with broken escapes or huge values are pages, not crashes", async () => {
    const base = `client_id=sandbox-linkedin-client&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`;
    for (const extra of ["&state=%FF%FE", "&state=%E0%A4%A", `&state=${"s".repeat(6000)}`, "&scope=%"]) {
      const res = await send(`/sandbox/linkedin/oauth/authorize?${base}${extra}`);
      expect(res.status, extra.slice(0, 20)).toBe(200);
    }
    const broken = await send("/sandbox/linkedin/oauth/authorize?client_id=%FF&redirect_uri=%E0%A4%A");
    expect(broken.status).toBe(400);
  });

  // What the emulators read: a body that cannot be the platform's request is the platform's 400 (or 413
  // past the cap), in its own format, whatever the route; never a crash. X reads JSON, LinkedIn too.
  const BODY_ROUTES: Array<[Platform, string]> = [
    ["twitter", "/sandbox/twitter/2/tweets"],
    ["pinterest", "/sandbox/pinterest/v5/pins"],
    ["tiktok", "/sandbox/tiktok/v2/post/publish/video/init/"],
  ];

  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["a string", '"items"'],
    ["a text that is a number", '{"text":5,"board_id":5,"post_info":5}'],
    ["not JSON", "{items:"],
    ["nested a million deep", `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`.slice(0, 1_500_000)],
    ["nested objects", `{"text":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`],
    ["not UTF-8", bytes(0x7b, 0xff, 0xfe, 0x7d)],
  ])("a publish body that is %s: the platform's 400", async (_, body) => {
    for (const [platform, path] of BODY_ROUTES) {
      const token = await tokenFor(platform, freshHandle("types"));
      const res = await post(path, "application/json", body, { authorization: `Bearer ${token}` });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toBeTruthy();
    }
  });

  it("a publish too large for any platform: a 413, not a storage crash", async () => {
    const body = JSON.stringify({ text: "€".repeat(600_000) });
    for (const [platform, path] of BODY_ROUTES) {
      const token = await tokenFor(platform, freshHandle("huge"));
      const res = await post(path, "application/json", body, { authorization: `Bearer ${token}` });
      expect(res.status, path).toBe(413);
    }
  });

  it("an upload above what the sandbox stores per request: LinkedIn's 413, nothing stored", async () => {
    const handle = freshHandle("bigupload");
    const token = await tokenFor("linkedin", handle);
    const owner = `urn:li:person:${await sandboxPlatformId("linkedin", handle)}`;
    const started = await post(
      "/sandbox/linkedin/rest/images?action=initializeUpload",
      "application/json",
      JSON.stringify({ initializeUploadRequest: { owner } }),
      {
        authorization: `Bearer ${token}`,
        "linkedin-version": LINKEDIN_VERSION,
        "x-restli-protocol-version": "2.0.0",
      },
    );
    expect(started.status).toBe(200);
    const { value } = (await started.json()) as { value: { uploadUrl: string; image: string } };
    const big = new Uint8Array(SANDBOX_LIMITS.mediaBytesPerUpload + 1);
    big.set([0x89, 0x50, 0x4e, 0x47]);
    const res = await send(new URL(value.uploadUrl).pathname, { method: "PUT", body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ status: 413 });
    expect(await env.MEDIA.head(`sandbox/linkedin/${value.image}`)).toBeNull();
  });

  it("lone surrogates in a post and a handle are stored and shown, not crashes", async () => {
    const token = await tokenFor("twitter", freshHandle("surrogate"));
    const res = await post("/sandbox/twitter/2/tweets", "application/json", '{"text":"a\\ud800b"}', {
      authorization: `Bearer ${token}`,
    });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { id: string } };
    expect((await send(`/sandbox/twitter/posts/${data.id}`)).status).toBe(200);
    const json = await send(`/sandbox/twitter/posts/${data.id}`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(200);
    // Kept as sent: JSON carries the lone surrogate escaped, both into storage and back out.
    expect(((await json.json()) as any).text).toEqual(["a\ud800b"]);
    expect((await send("/sandbox/twitter/accounts/%ED%A0%80/posts")).status).toBeLessThan(500);
  });

  it("paths and queries with broken escapes or huge values", async () => {
    const token = await tokenFor("twitter", freshHandle("paths"));
    const auth = { headers: { authorization: `Bearer ${token}`, accept: "application/json" } };
    for (const path of [
      "/sandbox/twitter/accounts/%E0%A4%A/posts",
      "/sandbox/twitter/accounts/%FF/stats",
      "/sandbox/twitter/posts/%FF",
      "/sandbox/twitter/media/%E0%A4%A",
      "/sandbox/twitter/2/tweets/%E0%A4%A",
      "/sandbox/twitter/2/tweets/99999999999999999999999",
      `/sandbox/twitter/2/tweets/search/recent?query=${"f".repeat(5000)}`,
      "/sandbox/twitter/2/tweets/search/recent?query=%FF",
      "/sandbox/pinterest/v5/pins/%FF/analytics",
      "/sandbox/%FF/me",
    ]) {
      const res = await send(path, auth);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

/** An access token for `handle` through the real consent and code exchange. */
async function tokenFor(platform: Platform, handle: string) {
  const res = await exchange(platform, await codeFor(platform, handle));
  expect(res.status).toBe(200);
  return accessTokenOf(platform, await res.json());
}

describe("item 2a: authorization codes are single use and bound to their client and redirect URI", () => {
  it.each(PLATFORMS)("%s: a code exchanged once is invalid_grant the second time", async (platform) => {
    const code = await codeFor(platform);
    expect((await exchange(platform, code)).status).toBe(200);
    expect(await oauthFailure(await exchange(platform, code))).toEqual({
      status: 400,
      error: "invalid_grant",
    });
  });

  it.each(["twitter", "linkedin"] as const)(
    "%s: 10 parallel exchanges of one code, exactly one succeeds",
    async (platform) => {
      const code = await codeFor(platform);
      const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(platform, code)));
      expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
      const refused = answers.filter((res) => res.status !== 200);
      expect(refused).toHaveLength(9);
      for (const res of refused)
        expect(await oauthFailure(res)).toEqual({ status: 400, error: "invalid_grant" });
    },
  );

  it("a code is bound to its redirect URI even without PKCE; a refused exchange does not spend it", async () => {
    const code = await codeFor("linkedin", "ada", `${ORIGIN}/first/callback`);
    const other = await exchange("linkedin", code, `${ORIGIN}/second/callback`);
    expect(await oauthFailure(other)).toEqual({ status: 400, error: "invalid_grant" });
    expect((await exchange("linkedin", code, `${ORIGIN}/first/callback`)).status).toBe(200);
  });

  it("a code issued to another client is refused, as is an expired one", async () => {
    const base = { p: "linkedin", h: "ada", r: REDIRECT_URI, c: null, n: crypto.randomUUID() };
    const foreign = await seal(env, CODE_PURPOSE, { ...base, k: "someone-else", e: Date.now() + HOUR_MS });
    const expired = await seal(env, CODE_PURPOSE, {
      ...base,
      k: "sandbox-linkedin-client",
      e: Date.now() - 1,
    });
    for (const code of [foreign, expired]) {
      expect(await oauthFailure(await exchange("linkedin", code))).toEqual({
        status: 400,
        error: "invalid_grant",
      });
    }
  });

  it("authorize refuses a client the platform does not know", async () => {
    const query = new URLSearchParams({
      client_id: "someone-else",
      response_type: "code",
      redirect_uri: REDIRECT_URI,
    });
    const res = await send(`/sandbox/linkedin/oauth/authorize?${query}`);
    expect(res.status).toBe(400);
  });

  it("a code a finished delegation used cannot be replayed into another flow (LinkedIn, no PKCE)", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const app = await createApp();
    const first = await runFlow(await createSession(app, { platform: "linkedin" }), { handle: "victim" });
    expect(first.landed.searchParams.get("handle")).toBe("victim");
    const code = new URL(locationOf(first.steps.decision)).searchParams.get("code")!;

    const browser = new Browser();
    const consent = new URL(
      locationOf(await browser.get(await createSession(app, { platform: "linkedin" }))),
    );
    const state = consent.searchParams.get("state")!;
    const res = await browser.get(`/api/oauth/delegate/callback?${new URLSearchParams({ state, code })}`);
    const landed = new URL(locationOf(res));
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.has("handle")).toBe(false);
  });
});

describe("item 2b: access tokens expire and refresh like the platform's", () => {
  const expiredToken = (platform: Platform, handle: string) =>
    seal(env, TOKEN_PURPOSE, {
      p: platform,
      h: handle,
      k: sandboxClient(platform).clientId,
      e: Date.now() - 1,
    });

  it("an expired access token is the platform's 401 on every emulated API route", async () => {
    const handle = freshHandle("expired");
    const live = await tokenFor("twitter", handle);
    const published = await post("/sandbox/twitter/2/tweets", "application/json", '{"text":"hi"}', {
      authorization: `Bearer ${live}`,
    });
    expect(published.status).toBe(201);
    const id = ((await published.json()) as { data: { id: string } }).data.id;
    const expired = await expiredToken("twitter", handle);
    for (const [method, path, body] of [
      ["GET", "/sandbox/twitter/me", undefined],
      ["GET", "/sandbox/twitter/2/users/me", undefined],
      ["POST", "/sandbox/twitter/2/tweets", '{"text":"x"}'],
      ["GET", `/sandbox/twitter/2/tweets/${id}?tweet.fields=public_metrics`, undefined],
      ["GET", `/sandbox/twitter/2/tweets/search/recent?query=conversation_id:${id}`, undefined],
      [
        "POST",
        "/sandbox/twitter/2/tweets",
        JSON.stringify({ text: "re", reply: { in_reply_to_tweet_id: id } }),
      ],
    ] as const) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
        authorization: `Bearer ${expired}`,
      };
      const res = await send(path, { method, headers, body });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    // Nothing was published by the refused calls.
    const listed = await send(`/sandbox/twitter/accounts/${handle}/posts`);
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);
  });

  it("token answers carry the platform's expiry; the access token expires then", async () => {
    const res = await exchange("twitter", await codeFor("twitter"));
    const body = (await res.json()) as { expires_in: number; access_token: string; refresh_token: string };
    expect(body.expires_in).toBe(7200);
    const payload = JSON.parse(atob(body.access_token.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/")));
    expect(payload.e).toBeGreaterThan(Date.now() + 7100_000);
    expect(payload.e).toBeLessThanOrEqual(Date.now() + 7200_000);
  });

  it.each([
    ["twitter", true],
    ["tiktok", true],
    ["linkedin", false],
    // Continuous refresh: a new refresh token each time, the one presented is spent.
    ["pinterest", true],
    ["youtube", false],
  ] as const)("%s: refresh_token grant works; rotating: %s", async (platform, rotates) => {
    const first = (await (await exchange(platform, await codeFor(platform, "refresher"))).json()) as any;
    expect(typeof first.refresh_token).toBe("string");
    const refresh = (token: string) =>
      tokenRequest(platform, { grant_type: "refresh_token", refresh_token: token });
    const renewed = await refresh(first.refresh_token);
    expect(renewed.status).toBe(200);
    const body = (await renewed.json()) as any;
    const access = accessTokenOf(platform, body);
    const me = await send(`/sandbox/${platform}/me`, { headers: { authorization: `Bearer ${access}` } });
    expect(me.status).toBe(200);
    const again = await refresh(first.refresh_token);
    if (rotates) {
      expect(body.refresh_token).not.toBe(first.refresh_token);
      expect(await oauthFailure(again)).toEqual({ status: 400, error: "invalid_grant" });
      expect((await refresh(body.refresh_token)).status).toBe(200);
    } else {
      expect(again.status).toBe(200);
    }
  });

  it("a refresh token is bound to its client and platform, and is not an access token", async () => {
    const { refresh_token, access_token } = (await (
      await exchange("twitter", await codeFor("twitter"))
    ).json()) as any;
    const wrongSecret = await tokenRequest(
      "twitter",
      { grant_type: "refresh_token", refresh_token },
      { clientId: "sandbox-twitter-client", clientSecret: "nope" },
    );
    expect(await oauthFailure(wrongSecret)).toEqual({ status: 401, error: "invalid_client" });
    const elsewhere = await tokenRequest("tiktok", { grant_type: "refresh_token", refresh_token });
    expect(await oauthFailure(elsewhere)).toEqual({ status: 400, error: "invalid_grant" });
    const asAccess = await send("/sandbox/twitter/me", {
      headers: { authorization: `Bearer ${refresh_token}` },
    });
    expect(asAccess.status).toBe(401);
    const accessAsRefresh = await tokenRequest("twitter", {
      grant_type: "refresh_token",
      refresh_token: access_token,
    });
    expect(await oauthFailure(accessAsRefresh)).toEqual({ status: 400, error: "invalid_grant" });
  });

  it("10 parallel refreshes of a rotating refresh token: exactly one succeeds", async () => {
    const { refresh_token } = (await (await exchange("tiktok", await codeFor("tiktok"))).json()) as any;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        tokenRequest("tiktok", { grant_type: "refresh_token", refresh_token }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(1);
  });

  it("platforms without refresh tokens (Meta's) answer unsupported_grant_type to a refresh", async () => {
    const first = (await (await exchange("facebook", await codeFor("facebook"))).json()) as any;
    expect(first.refresh_token).toBeUndefined();
    const res = await tokenRequest("facebook", { grant_type: "refresh_token", refresh_token: "x" });
    expect(await oauthFailure(res)).toEqual({ status: 400, error: "unsupported_grant_type" });
  });
});

describe("item 3: the consent form only redirects to the service's own origin", () => {
  it.each([
    "https://evil.test/api/oauth/delegate/callback",
    "http://api.example.test/api/oauth/delegate/callback",
    "https://api.example.test.evil.test/cb",
    "https://api.example.test:8443/cb",
    "https://evil.test@api.example.test.evil.test/cb",
    `${ORIGIN}/cb#fragment`,
  ])("%s: a 400 page on every step, never a redirect", async (redirectUri) => {
    const query = new URLSearchParams({
      client_id: "sandbox-linkedin-client",
      response_type: "code",
      redirect_uri: redirectUri,
      state: "st",
    });
    const path = `/sandbox/linkedin/oauth/authorize?${query}`;
    for (const res of [
      await send(path),
      await formPost(path, { handle: "ada", decision: "allow" }),
      await formPost(path, { decision: "deny" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
    }
  });

  it("any path on the service's own origin is accepted", async () => {
    const code = await codeFor("linkedin", "ada", `${ORIGIN}/any/where?x=1`);
    expect((await exchange("linkedin", code, `${ORIGIN}/any/where?x=1`)).status).toBe(200);
  });
});
