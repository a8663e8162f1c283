import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { pkceChallenge } from "../../src/platforms/adapter";
import { SPECS } from "../../src/platforms/catalog";
import { lookupAdapter } from "../../src/platforms/index";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { emulatedAdapter } from "../../src/platforms/sandbox/emulated";
import { type PlatformAdapter, PlatformError } from "../../src/platforms/types";
import { EMULATORS } from "../../src/sandbox/emulators";
import { formAction } from "../delegation/support";
import { ORIGIN } from "../support/client";
import { adapterFor, replay } from "./replay";

const REDIRECT_URI = "https://api.example.test/api/oauth/delegate/callback";
const VERIFIER = "sandbox-test-verifier-".padEnd(43, "x");

function sandboxAdapter(platform: Platform): PlatformAdapter {
  const lookup = lookupAdapter(env, platform, ORIGIN, "live");
  if (lookup.kind !== "ok") throw new Error("the sandbox should serve every platform");
  return lookup.adapter;
}

const send = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

/** Consent through the sandbox's own pages; returns the code from the redirect. */
async function consent(adapter: PlatformAdapter, handle: string, redirectUri = REDIRECT_URI) {
  const challenge = adapter.pkce ? await pkceChallenge(VERIFIER) : undefined;
  const authorizeUrl = await adapter.authorizeUrl({ redirectUri, state: "st", codeChallenge: challenge });
  const page = await send(new URL(authorizeUrl).pathname + new URL(authorizeUrl).search);
  expect(page.status).toBe(200);
  const decided = await send(formAction(await page.text()), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ handle, decision: "allow" }),
  });
  const back = new URL(decided.headers.get("location")!);
  expect(back.searchParams.get("state")).toBe("st");
  return back.searchParams.get("code")!;
}

describe("sandbox OAuth: answers like the platform would", () => {
  it.each(PLATFORMS)(
    "%s: consent, code exchange and identity through the real adapter code",
    async (platform) => {
      const adapter = sandboxAdapter(platform);
      const code = await consent(adapter, "Grace Hopper");
      const token = await adapter.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER });
      const identity = await adapter.identity(token);
      expect(identity.handle).toBe("Grace Hopper");
      expect(identity.platform_id.length).toBeGreaterThan(5);
      // Stable per (platform, handle).
      const again = await adapter.identity(
        await adapter.exchangeCode({
          code: await consent(adapter, "Grace Hopper"),
          redirectUri: REDIRECT_URI,
          codeVerifier: VERIFIER,
        }),
      );
      expect(again.platform_id).toBe(identity.platform_id);
    },
  );

  it("looks like each platform's ids", async () => {
    const idOf = async (platform: Platform) => {
      const adapter = sandboxAdapter(platform);
      const code = await consent(adapter, "ada");
      return (
        await adapter.identity(
          await adapter.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
        )
      ).platform_id;
    };
    expect(await idOf("twitter")).toMatch(/^\d{18}$/);
    expect(await idOf("youtube")).toMatch(/^UC[A-Za-z0-9_-]{22}$/);
    expect(await idOf("instagram")).toMatch(/^178414\d{11}$/);
    expect(await idOf("tiktok")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await idOf("linkedin")).toMatch(/^[A-Za-z0-9_-]{10}$/);
  });

  it("refuses a PKCE code without the right verifier, a wrong redirect_uri, a code of another platform", async () => {
    const twitter = sandboxAdapter("twitter");
    const code = await consent(twitter, "ada");
    await expect(
      twitter.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: "w".repeat(43) }),
    ).rejects.toBeInstanceOf(PlatformError);
    await expect(twitter.exchangeCode({ code, redirectUri: REDIRECT_URI })).rejects.toBeInstanceOf(
      PlatformError,
    );
    await expect(
      twitter.exchangeCode({ code, redirectUri: "https://elsewhere.test/cb", codeVerifier: VERIFIER }),
    ).rejects.toBeInstanceOf(PlatformError);
    await expect(
      sandboxAdapter("threads").exchangeCode({ code, redirectUri: REDIRECT_URI }),
    ).rejects.toBeInstanceOf(PlatformError);
    await expect(
      twitter.exchangeCode({ code: `${code}x`, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
    ).rejects.toBeInstanceOf(PlatformError);
    // A refused exchange does not spend the code: the genuine one still works, once.
    await expect(
      twitter.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
    ).resolves.toBeDefined();
    await expect(
      twitter.exchangeCode({ code, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
    ).rejects.toMatchObject({ code: "invalid_grant" });
  });

  it("fails the token exchange for the handle `fail` with an OAuth error answer", async () => {
    const adapter = sandboxAdapter("pinterest");
    const code = await consent(adapter, "fail");
    const res = await send("/sandbox/pinterest/oauth/token", {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("sandbox-pinterest-client:sandbox-pinterest-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "invalid_grant",
      error_description: 'Sandbox: the handle "fail" always fails the token exchange.',
    });
  });

  it("checks the client credentials on the token endpoint", async () => {
    const adapter = sandboxAdapter("linkedin");
    const code = await consent(adapter, "ada");
    const exchange = (client_secret: string) =>
      send("/sandbox/linkedin/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: REDIRECT_URI,
          client_id: "sandbox-linkedin-client",
          client_secret,
        }),
      });
    expect((await exchange("wrong")).status).toBe(401);
    expect((await exchange("sandbox-linkedin-secret")).status).toBe(200);
  });

  it("refuses an identity call without a valid token of that platform", async () => {
    expect((await send("/sandbox/twitter/me")).status).toBe(401);
    expect(
      (await send("/sandbox/twitter/me", { headers: { authorization: "Bearer forged.token" } })).status,
    ).toBe(401);
  });
});

describe("sandbox consent page", () => {
  const authorize = (query: Record<string, string>) =>
    send(`/sandbox/twitter/oauth/authorize?${new URLSearchParams(query)}`);
  const valid = {
    client_id: "sandbox-twitter-client",
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    state: "st",
    code_challenge: "c".repeat(43),
    code_challenge_method: "S256",
  };

  it.each([
    ["no client id", { client_id: "" }],
    ["a response_type other than code", { response_type: "token" }],
    ["a relative redirect_uri", { redirect_uri: "/cb" }],
    ["a javascript: redirect_uri", { redirect_uri: "javascript:alert(1)" }],
    ["the plain PKCE method", { code_challenge_method: "plain" }],
    ["a malformed challenge", { code_challenge: "short" }],
  ])("400 page for %s", async (_, change) => {
    const res = await authorize({ ...valid, ...change });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("400 page when a platform that requires PKCE gets no challenge", async () => {
    const { code_challenge: _c, code_challenge_method: _m, ...withoutPkce } = valid;
    const res = await authorize(withoutPkce);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("requires PKCE");
  });

  it("asks again, with the reason, for an empty, blank or too long handle, or no decision", async () => {
    const page = await authorize(valid);
    const action = formAction(await page.text());
    for (const [form, reason] of [
      [{ handle: "", decision: "allow" }, "Enter a handle."],
      [{ handle: "   ", decision: "allow" }, "Enter a handle."],
      [{ handle: "h".repeat(101), decision: "allow" }, "A handle has at most 100 characters."],
      [{ handle: "ada" }, "Choose Allow or Deny."],
    ] as const) {
      const res = await send(action, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form),
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(reason);
    }
  });

  it("404 for a platform the sandbox does not fake", async () => {
    expect((await send("/sandbox/myspace/oauth/authorize?client_id=x")).status).toBe(404);
  });
});

describe("sandbox publishing with a token from its OAuth flow", () => {
  it("publishes as the handle the token was issued for; another platform's token is refused", async () => {
    // On the generic sandbox publisher (YouTube and TikTok run on their emulators: test/sandbox/).
    const adapter = sandboxAdapter("twitter");
    const handle = `oauth-publisher-${Date.now()}`;
    const token = await adapter.exchangeCode({
      code: await consent(adapter, handle),
      redirectUri: REDIRECT_URI,
      codeVerifier: VERIFIER,
    });
    // The token decides the account, as on a real platform, whatever handle the caller names.
    const account = { handle: "someone-else", platformUserId: null, accessToken: token.accessToken };
    const draft = { items: [{ text: "Via OAuth", media: [] }], settings: {}, fingerprint: "sp-oauth-1" };
    const post = await adapter.publish(account, draft);
    const listed = await send(`/sandbox/twitter/accounts/${encodeURIComponent(handle)}/posts`);
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((p) => p.id)).toEqual([post.id]);
    await expect(sandboxAdapter("linkedin").publish(account, draft)).rejects.toMatchObject({ kind: "auth" });
  });
});

describe("the in-process sandbox fetch", () => {
  it("gives a tokenless account a session (token and platform id) the adapter publishes with, asked each call", async () => {
    const res = await send("/sandbox/twitter/accounts/demo_user/session", { method: "POST" });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { access_token: string; platform_id: string };
    expect(session.platform_id).toMatch(/^\d{18}$/);
    const again = (await (
      await send("/sandbox/twitter/accounts/demo_user/session", { method: "POST" })
    ).json()) as {
      platform_id: string;
    };
    expect(again.platform_id).toBe(session.platform_id);
    // The adapter asks it for an account stored without tokens, through its in-process fetch.
    const asked: string[] = [];
    const recorded = emulatedAdapter(SPECS.twitter, ORIGIN, (input, init) => {
      asked.push(new Request(input, init).url);
      return sandboxFetch(ORIGIN)(input, init);
    });
    const post = await recorded.publish(
      { handle: "demo_user", platformUserId: null, accessToken: null },
      { items: [{ text: "Hello from a session", media: [] }], settings: {}, fingerprint: "sp-session-1" },
    );
    expect(post.id).toBeTruthy();
    expect(asked[0]).toBe(`${ORIGIN}/sandbox/twitter/accounts/demo_user/session`);
    const listed = await send("/sandbox/twitter/accounts/demo_user/posts");
    expect(((await listed.json()) as { data: { id: string }[] }).data.map((p) => p.id)).toContain(post.id);
  });

  it("never reaches anything but the sandbox on the service's origin", async () => {
    const fetch = sandboxFetch(ORIGIN);
    await expect(fetch("https://api.x.com/2/users/me")).rejects.toThrow(/only reaches/);
    await expect(fetch(`${ORIGIN}/api/v1/workspaces`)).rejects.toThrow(/only reaches/);
    await expect(fetch("https://evil.test/sandbox/twitter/me")).rejects.toThrow(/only reaches/);
    expect((await fetch(`${ORIGIN}/sandbox/twitter/me`)).status).toBe(401);
  });
});

describe("the adapter and its emulator read the same refusal", () => {
  // Each states the `error` its platform redirects with when the user declines, from the platform's docs.
  it.each(PLATFORMS)(
    "%s: the emulator's denial is one the adapter recognises, and nothing else is",
    (platform) => {
      const adapter = adapterFor(platform, replay().fetch);
      expect(adapter.isDenial(EMULATORS[platform].shape.denial)).toBe(true);
      expect(adapter.isDenial("server_error")).toBe(false);
      expect(adapter.isDenial("invalid_scope")).toBe(false);
    },
  );
});
