// An Instagram connect: the consent asks for the publishing, comments and insights permissions; the
// short-lived token is swapped for a long-lived one (its own refresh token), refreshed with
// ig_refresh_token. Both calls are GETs, as documented (POST is not supported there).
import { describe, expect, it } from "vitest";
import { RECORDED as OAUTH } from "../recorded";
import { adapterFor, json, replay } from "../replay";
import { IG_USER_ID, LONG_LIVED, RECORDED, SHORT_LIVED } from "./recorded";

const REDIRECT_URI = "https://api.example.test/api/oauth/delegate/callback";
const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

describe("instagram connect", () => {
  it("asks a connect for the business permissions, a delegation for the basic one", async () => {
    const adapter = adapterFor("instagram", replay().fetch);
    const connect = new URL(
      await adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: "s", purpose: "connect" }),
    );
    expect(connect.searchParams.get("scope")).toBe(
      "instagram_business_basic,instagram_business_content_publish," +
        "instagram_business_manage_comments,instagram_business_manage_insights",
    );
    const delegation = new URL(await adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: "s" }));
    expect(delegation.searchParams.get("scope")).toBe("instagram_business_basic");
  });

  it("swaps a connect's short-lived token for a long-lived one, kept as its refresh token", async () => {
    const { fetch, requests } = replay(json(OAUTH.instagram.token), json(RECORDED.longLived));
    const token = await adapterFor("instagram", fetch).exchangeCode({
      code: "the-code",
      redirectUri: REDIRECT_URI,
      purpose: "connect",
    });
    expect(token).toEqual({
      accessToken: LONG_LIVED,
      refreshToken: LONG_LIVED,
      expiresIn: 5183944,
      userId: IG_USER_ID,
    });
    const swap = requests[1]!;
    expect(swap.method).toBe("GET");
    expect(swap.url.split("?")[0]).toBe("https://graph.instagram.com/access_token");
    expect(queryOf(swap)).toEqual({
      grant_type: "ig_exchange_token",
      client_secret: "secret-456",
      access_token: SHORT_LIVED,
    });
  });

  it("keeps a delegation's token as it is: no swap", async () => {
    const { fetch, requests } = replay(json(OAUTH.instagram.token));
    await adapterFor("instagram", fetch).exchangeCode({ code: "c", redirectUri: REDIRECT_URI });
    expect(requests).toHaveLength(1);
  });

  it("refreshes the long-lived token with ig_refresh_token, the new token its own refresh token", async () => {
    const { fetch, requests } = replay(json(RECORDED.refreshed));
    const token = await adapterFor("instagram", fetch).refreshToken(LONG_LIVED);
    expect(token).toEqual({
      accessToken: RECORDED.refreshed.access_token,
      refreshToken: RECORDED.refreshed.access_token,
      expiresIn: 5183944,
    });
    expect(requests[0]!.url.split("?")[0]).toBe("https://graph.instagram.com/refresh_access_token");
    expect(queryOf(requests[0]!)).toEqual({ grant_type: "ig_refresh_token", access_token: LONG_LIVED });
  });

  it("reads a refused refresh as auth, without quoting the answer or the URL", async () => {
    const { fetch } = replay(json(RECORDED.errors.expired, 400));
    const failure = adapterFor("instagram", fetch).refreshToken(LONG_LIVED);
    await expect(failure).rejects.toMatchObject({ kind: "auth", code: "token_expired" });
    await expect(failure).rejects.not.toThrow(LONG_LIVED);
    await expect(failure).rejects.not.toThrow(/Session has expired/);
  });
});
