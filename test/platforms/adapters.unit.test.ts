import { describe, expect, it } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { pkceChallenge } from "../../src/platforms/adapter";
import { SPECS } from "../../src/platforms/catalog";
import { PlatformError } from "../../src/platforms/types";
import { hmacHex } from "../support/hmac";
import { RECORDED } from "./recorded";
import { adapterFor, json, replay } from "./replay";

const REDIRECT_URI = "https://api.example.test/api/oauth/delegate/callback";
const STATE = "flowid.flowsecret";
const VERIFIER = "v".repeat(43);

type Expectation = {
  authorize: { url: string; params: Record<string, string> };
  token: { method: "POST"; url: string; basic: boolean; params: Record<string, string> };
  identity: { url: string; query?: Record<string, string> };
};

const base = { redirect_uri: REDIRECT_URI, response_type: "code", state: STATE };
const codeParams = { grant_type: "authorization_code", code: "the-code", redirect_uri: REDIRECT_URI };
const inBody = { client_id: "client-123", client_secret: "secret-456" };

// What each platform's documentation asks for, request by request.
const EXPECTED: Record<Platform, Expectation> = {
  tiktok: {
    authorize: {
      url: "https://www.tiktok.com/v2/auth/authorize/",
      params: { ...base, client_key: "client-123", scope: "user.info.basic,user.info.profile" },
    },
    token: {
      method: "POST",
      url: "https://open.tiktokapis.com/v2/oauth/token/",
      basic: false,
      params: { ...codeParams, client_key: "client-123", client_secret: "secret-456" },
    },
    identity: {
      url: "https://open.tiktokapis.com/v2/user/info/",
      query: { fields: "open_id,username,display_name" },
    },
  },
  instagram: {
    authorize: {
      url: "https://www.instagram.com/oauth/authorize",
      params: { ...base, client_id: "client-123", scope: "instagram_business_basic" },
    },
    token: {
      method: "POST",
      url: "https://api.instagram.com/oauth/access_token",
      basic: false,
      params: { ...codeParams, ...inBody },
    },
    identity: { url: "https://graph.instagram.com/v25.0/me", query: { fields: "user_id,username" } },
  },
  twitter: {
    authorize: {
      url: "https://x.com/i/oauth2/authorize",
      params: {
        ...base,
        client_id: "client-123",
        scope: "tweet.read users.read",
        code_challenge_method: "S256",
      },
    },
    token: {
      method: "POST",
      url: "https://api.x.com/2/oauth2/token",
      basic: true,
      params: { ...codeParams, code_verifier: VERIFIER },
    },
    identity: { url: "https://api.x.com/2/users/me" },
  },
  linkedin: {
    authorize: {
      url: "https://www.linkedin.com/oauth/v2/authorization",
      params: { ...base, client_id: "client-123", scope: "openid profile" },
    },
    token: {
      method: "POST",
      url: "https://www.linkedin.com/oauth/v2/accessToken",
      basic: false,
      params: { ...codeParams, ...inBody },
    },
    identity: { url: "https://api.linkedin.com/v2/userinfo" },
  },
  youtube: {
    authorize: {
      url: "https://accounts.google.com/o/oauth2/v2/auth",
      params: {
        ...base,
        client_id: "client-123",
        scope: "https://www.googleapis.com/auth/youtube.readonly",
        access_type: "online",
        code_challenge_method: "S256",
      },
    },
    token: {
      method: "POST",
      url: "https://oauth2.googleapis.com/token",
      basic: false,
      params: { ...codeParams, code_verifier: VERIFIER, ...inBody },
    },
    identity: {
      url: "https://www.googleapis.com/youtube/v3/channels",
      query: { part: "snippet", mine: "true" },
    },
  },
  facebook: {
    authorize: {
      url: "https://www.facebook.com/v25.0/dialog/oauth",
      params: { ...base, client_id: "client-123", scope: "public_profile" },
    },
    token: {
      method: "POST",
      url: "https://graph.facebook.com/v25.0/oauth/access_token",
      basic: false,
      params: { ...codeParams, ...inBody },
    },
    identity: { url: "https://graph.facebook.com/v25.0/me" },
  },
  pinterest: {
    authorize: {
      url: "https://www.pinterest.com/oauth/",
      params: { ...base, client_id: "client-123", scope: "user_accounts:read" },
    },
    token: {
      method: "POST",
      url: "https://api.pinterest.com/v5/oauth/token",
      basic: true,
      // A refresh token renewed on every refresh (Pinterest's continuous refresh).
      params: { ...codeParams, continuous_refresh: "true" },
    },
    identity: { url: "https://api.pinterest.com/v5/user_account" },
  },
  threads: {
    authorize: {
      url: "https://threads.com/oauth/authorize",
      params: { ...base, client_id: "client-123", scope: "threads_basic" },
    },
    token: {
      method: "POST",
      url: "https://graph.threads.net/oauth/access_token",
      basic: false,
      params: { ...codeParams, ...inBody },
    },
    identity: { url: "https://graph.threads.net/v1.0/me", query: { fields: "id,username" } },
  },
};

const paramsOf = (params: URLSearchParams) => Object.fromEntries(params);
const urlWithoutQuery = (url: string) => url.split("?")[0];

describe.each(PLATFORMS)("%s adapter", (platform) => {
  const expected = EXPECTED[platform];
  const recorded = RECORDED[platform];
  const spec = SPECS[platform];

  it("builds the platform's authorize URL, with PKCE S256 only where the platform takes it", async () => {
    const adapter = adapterFor(platform, replay().fetch);
    const challenge = await pkceChallenge(VERIFIER);
    const url = new URL(
      await adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: STATE, codeChallenge: challenge }),
    );
    expect(urlWithoutQuery(url.toString())).toBe(expected.authorize.url);
    const params = paramsOf(url.searchParams);
    if (adapter.pkce) {
      expect(params.code_challenge).toBe(challenge);
      delete params.code_challenge;
    } else {
      expect(params.code_challenge).toBeUndefined();
    }
    expect(params).toEqual(expected.authorize.params);
  });

  it("exchanges the code and reads the identity from recorded answers", async () => {
    const { fetch, requests } = replay(json(recorded.token), json(recorded.identity));
    const adapter = adapterFor(platform, fetch);
    const token = await adapter.exchangeCode({
      code: "the-code",
      redirectUri: REDIRECT_URI,
      codeVerifier: VERIFIER,
    });
    expect(await adapter.identity(token)).toEqual(recorded.expected);

    const [tokenRequest, identityRequest] = requests as [Request, Request];
    expect(tokenRequest.method).toBe(expected.token.method);
    // Every platform's exchange is a POST form: nothing of it in the URL.
    expect(tokenRequest.url).toBe(expected.token.url);
    expect(tokenRequest.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(paramsOf(new URLSearchParams(await tokenRequest.text()))).toEqual(expected.token.params);
    expect(tokenRequest.headers.get("authorization")).toBe(
      expected.token.basic ? `Basic ${btoa("client-123:secret-456")}` : null,
    );

    expect(identityRequest.method).toBe("GET");
    expect(urlWithoutQuery(identityRequest.url)).toBe(expected.identity.url);
    const accessToken = spec.parseToken(recorded.token)!.accessToken;
    // Every identity call sends the token as a Bearer header, never in the URL.
    expect(identityRequest.headers.get("authorization")).toBe(`Bearer ${accessToken}`);
    expect(identityRequest.url).not.toContain(accessToken);
    if (expected.identity.query) {
      expect(paramsOf(new URL(identityRequest.url).searchParams)).toEqual(expected.identity.query);
    }
  });

  it("turns the platform's refusal of a bad code into a PlatformError that names no secret", async () => {
    const adapter = adapterFor(
      platform,
      replay(json(recorded.tokenError.body, recorded.tokenError.status)).fetch,
    );
    const failure = adapter.exchangeCode({
      code: "bad-code",
      redirectUri: REDIRECT_URI,
      codeVerifier: VERIFIER,
    });
    await expect(failure).rejects.toBeInstanceOf(PlatformError);
    await expect(failure).rejects.not.toThrow(/bad-code|secret-456/);
  });

  it("fails with a PlatformError on a network error, a timeout, an HTML answer or a token without access_token", async () => {
    const answers: Array<Response | Error> = [
      new TypeError("Network connection lost."),
      new DOMException("The operation was aborted due to timeout", "TimeoutError"),
      new Response("<html>Service Unavailable</html>", { status: 200 }),
      json({ token_type: "bearer" }),
    ];
    for (const answer of answers) {
      const adapter = adapterFor(platform, replay(answer).fetch);
      await expect(
        adapter.exchangeCode({ code: "c", redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
      ).rejects.toBeInstanceOf(PlatformError);
    }
  });

  it("fails with a PlatformError when the identity answer has no user id or is an error", async () => {
    const token = spec.parseToken(recorded.token)!;
    for (const answer of [json({}), json({ error: { message: "Invalid OAuth access token." } }, 401)]) {
      const adapter = adapterFor(platform, replay(answer).fetch);
      if (token.userId && answer.status === 200) {
        // Platforms that return the user id with the token still need the identity call for the handle.
        await expect(adapter.identity(token)).resolves.toEqual({ platform_id: token.userId, handle: "" });
      } else {
        await expect(adapter.identity(token)).rejects.toBeInstanceOf(PlatformError);
      }
    }
  });
});

describe("platform specifics", () => {
  it("twitter: refuses to build an authorize URL without a PKCE challenge", () => {
    const adapter = adapterFor("twitter", replay().fetch);
    expect(() => adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: STATE })).toThrow(/PKCE/);
  });

  it("tiktok: a 200 answer carrying an OAuth error is a failure", async () => {
    const adapter = adapterFor("tiktok", replay(json(RECORDED.tiktok.tokenError.body, 200)).fetch);
    await expect(adapter.exchangeCode({ code: "c", redirectUri: REDIRECT_URI })).rejects.toBeInstanceOf(
      PlatformError,
    );
  });

  it("tiktok: a user-info answer whose error.code is not ok is a failure", async () => {
    const answer = {
      data: {},
      error: { code: "access_token_invalid", message: "The access token is invalid." },
    };
    const adapter = adapterFor("tiktok", replay(json(answer)).fetch);
    await expect(adapter.identity({ accessToken: "a", userId: "u" })).rejects.toBeInstanceOf(PlatformError);
  });

  it("tiktok: falls back to display_name when username is not granted", async () => {
    const answer = { data: { user: { open_id: "o-1", display_name: "Shown Name" } }, error: { code: "ok" } };
    const adapter = adapterFor("tiktok", replay(json(answer)).fetch);
    expect(await adapter.identity({ accessToken: "a" })).toEqual({
      platform_id: "o-1",
      handle: "Shown Name",
    });
  });

  it("instagram: also reads a flat token answer", async () => {
    const flat = { access_token: "IGQ-flat", user_id: 17841405822304914 };
    expect(SPECS.instagram.parseToken(flat)).toEqual({
      accessToken: "IGQ-flat",
      userId: "17841405822304914",
    });
  });

  it("youtube: a Google account without a channel cannot be connected", async () => {
    const empty = { kind: "youtube#channelListResponse", pageInfo: { totalResults: 0, resultsPerPage: 5 } };
    const adapter = adapterFor("youtube", replay(json(empty)).fetch);
    await expect(adapter.identity({ accessToken: "a" })).rejects.toBeInstanceOf(PlatformError);
  });

  it("youtube: uses the channel title when it has no @handle", async () => {
    const channel = { items: [{ id: "UCabc", snippet: { title: "My Channel" } }] };
    const adapter = adapterFor("youtube", replay(json(channel)).fetch);
    expect(await adapter.identity({ accessToken: "a" })).toEqual({
      platform_id: "UCabc",
      handle: "My Channel",
    });
  });

  it("facebook: signs the identity call with appsecret_proof = HMAC-SHA256(app secret, token)", async () => {
    const { fetch, requests } = replay(json(RECORDED.facebook.identity));
    const token = { accessToken: "EAABwzLixnjYBOExampleFacebookToken" };
    await adapterFor("facebook", fetch).identity(token);
    const query = paramsOf(new URL(requests[0]!.url).searchParams);
    // The proof travels in the query, the token itself in the Authorization header.
    expect(query).toEqual({
      fields: "id,name",
      appsecret_proof: await hmacHex("secret-456", token.accessToken),
    });
    expect(requests[0]!.headers.get("authorization")).toBe(`Bearer ${token.accessToken}`);
  });

  it("a handle with a lone surrogate is made well-formed, so the signed value survives URL encoding", async () => {
    const adapter = adapterFor(
      "twitter",
      replay(json({ data: { id: "1", username: "bad\ud800name" } })).fetch,
    );
    expect(await adapter.identity({ accessToken: "a" })).toEqual({
      platform_id: "1",
      handle: "bad\ufffdname",
    });
  });
});
