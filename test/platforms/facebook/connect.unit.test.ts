// A Facebook connect: the consent asks for the Pages permissions, the short-lived user token is swapped
// for a long-lived one in a POST body, and the user's Pages (with their Page tokens) are the channels.
import { describe, expect, it } from "vitest";
import { RECORDED as OAUTH } from "../recorded";
import { adapterFor, json, replay } from "../replay";
import { LONG_LIVED, PAGE_ID, PAGE_TOKEN, RECORDED, USER_TOKEN } from "./recorded";
import { expectGet, GRAPH } from "./support";

const REDIRECT_URI = "https://api.example.test/api/oauth/delegate/callback";

describe("facebook connect", () => {
  it("asks a connect for the Pages permissions, a delegation for the public profile only", async () => {
    const adapter = adapterFor("facebook", replay().fetch);
    const connect = new URL(
      await adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: "s", purpose: "connect" }),
    );
    expect(connect.searchParams.get("scope")).toBe(
      "pages_show_list,pages_read_engagement,pages_manage_posts,pages_read_user_content," +
        "pages_manage_engagement,read_insights,publish_video,business_management",
    );
    const delegation = new URL(await adapter.authorizeUrl({ redirectUri: REDIRECT_URI, state: "s" }));
    expect(delegation.searchParams.get("scope")).toBe("public_profile");
  });

  it("swaps a connect's user token for a long-lived one, the secret in a POST body", async () => {
    const { fetch, requests } = replay(json(OAUTH.facebook.token), json(RECORDED.longLived));
    const token = await adapterFor("facebook", fetch).exchangeCode({
      code: "the-code",
      redirectUri: REDIRECT_URI,
      purpose: "connect",
    });
    expect(token).toEqual({ accessToken: LONG_LIVED, expiresIn: 5183944 });
    const swap = requests[1]!;
    expect(swap.method).toBe("POST");
    expect(swap.url).toBe(`${GRAPH}/oauth/access_token`);
    expect(swap.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(await swap.text()))).toEqual({
      grant_type: "fb_exchange_token",
      client_id: "client-123",
      client_secret: "secret-456",
      fb_exchange_token: USER_TOKEN,
    });
  });

  it("keeps a delegation's token as it is: no swap", async () => {
    const { fetch, requests } = replay(json(OAUTH.facebook.token));
    await adapterFor("facebook", fetch).exchangeCode({ code: "c", redirectUri: REDIRECT_URI });
    expect(requests).toHaveLength(1);
  });

  it("fails the connect when the swap is refused, without quoting the answer", async () => {
    const { fetch } = replay(json(OAUTH.facebook.token), json(RECORDED.errors.invalid, 400));
    const failure = adapterFor("facebook", fetch).exchangeCode({
      code: "c",
      redirectUri: REDIRECT_URI,
      purpose: "connect",
    });
    await expect(failure).rejects.toMatchObject({ kind: "permanent" });
    await expect(failure).rejects.not.toThrow(/Invalid parameter|secret-456/);
  });

  it("lists the user's Pages they can post on as channels, each with its Page token", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.pages[0]),
      json(RECORDED.pages[1]),
      json(RECORDED.noBusinesses),
    );
    const identity = { platform_id: "10158467912345678", handle: "Ada Lovelace" };
    const channels = await adapterFor("facebook", fetch).channels({ accessToken: LONG_LIVED }, identity);
    expect(channels).toEqual([
      {
        id: PAGE_ID,
        handle: "Ada's Bakery",
        name: "Ada's Bakery",
        avatar: "https://scontent.xx.fbcdn.net/v/t39.30808-1/ada.jpg",
        kind: "Page",
        accessToken: PAGE_TOKEN,
      },
      {
        id: "104857391155555",
        handle: "Ada's Second Shop",
        name: "Ada's Second Shop",
        avatar: null,
        kind: "Page",
        accessToken: "EAAPageTokenSecondPage",
      },
    ]);
    const query = { fields: "id,name,username,access_token,tasks,picture{url}", limit: "100" };
    // The long-lived user token reads the list, and signs it: the proof is of that token.
    await expectGet(requests[0]!, `${GRAPH}/me/accounts`, query, LONG_LIVED);
    await expectGet(
      requests[1]!,
      `${GRAPH}/me/accounts`,
      { ...query, after: "QVFIUkxxNGZAzSnJ5SHdl" },
      LONG_LIVED,
    );
    await expectGet(requests[2]!, `${GRAPH}/me/businesses`, { fields: "id,name", limit: "100" }, LONG_LIVED);
  });

  it("adds the Pages of the user's business portfolios (owned and client Pages), once each", async () => {
    const { fetch, requests } = replay(
      json(RECORDED.pages[0]),
      json(RECORDED.pages[1]),
      json(RECORDED.businesses),
      json(RECORDED.ownedPages),
      json(RECORDED.clientPages),
    );
    const identity = { platform_id: "10158467912345678", handle: "Ada Lovelace" };
    const channels = await adapterFor("facebook", fetch).channels({ accessToken: LONG_LIVED }, identity);
    expect(channels!.map((c) => [c.id, c.handle, c.accessToken])).toEqual([
      [PAGE_ID, "Ada's Bakery", PAGE_TOKEN],
      ["104857391155555", "Ada's Second Shop", "EAAPageTokenSecondPage"],
      ["104857391177777", "adaswholesale", "EAAPageTokenBusinessOwned"],
      ["104857391199999", "Client Cafe", "EAAPageTokenClient"],
    ]);
    const query = { fields: "id,name,username,access_token,tasks,picture{url}", limit: "100" };
    await expectGet(requests[3]!, `${GRAPH}/2233445566001/owned_pages`, query, LONG_LIVED);
    await expectGet(requests[4]!, `${GRAPH}/2233445566001/client_pages`, query, LONG_LIVED);
  });

  it("lists /me/accounts alone when the businesses cannot be read (no business_management); other failures still fail", async () => {
    const denied = json(
      {
        error: { message: "(#100) Missing Permission", type: "OAuthException", code: 100, fbtrace_id: "A1" },
      },
      400,
    );
    const identity = { platform_id: "10158467912345678", handle: "Ada Lovelace" };
    const withoutScope = replay(json(RECORDED.pages[0]), json(RECORDED.pages[1]), denied);
    const channels = await adapterFor("facebook", withoutScope.fetch).channels(
      { accessToken: LONG_LIVED },
      identity,
    );
    expect(channels!.map((c) => c.id)).toEqual([PAGE_ID, "104857391155555"]);
    // One business whose client Pages the user may not read: its owned Pages still count.
    const clientDenied = replay(
      json(RECORDED.pages[0]),
      json(RECORDED.pages[1]),
      json(RECORDED.businesses),
      json(RECORDED.ownedPages),
      json(
        {
          error: {
            message: "(#200) Requires business_management permission",
            type: "OAuthException",
            code: 200,
          },
        },
        403,
      ),
    );
    const some = await adapterFor("facebook", clientDenied.fetch).channels(
      { accessToken: LONG_LIVED },
      identity,
    );
    expect(some!.map((c) => c.id)).toEqual([PAGE_ID, "104857391155555", "104857391177777"]);
    const down = replay(
      json(RECORDED.pages[0]),
      json(RECORDED.pages[1]),
      json({ error: { message: "An unexpected error has occurred.", type: "OAuthException", code: 2 } }, 500),
    );
    await expect(
      adapterFor("facebook", down.fetch).channels({ accessToken: LONG_LIVED }, identity),
    ).rejects.toMatchObject({ kind: "transient" });
  });
});
