// Responses as each platform's documentation shows them (ids and tokens are the docs' examples or
// look-alikes), replayed to the adapters through an injected fetch.
import type { Platform } from "../../src/db/enums";

export type Recorded = {
  token: unknown;
  identity: unknown;
  /** What the adapter should read out of them. */
  expected: { platform_id: string; handle: string; name?: string; avatar?: string; verified?: boolean };
  /** The platform's answer to a bad code. */
  tokenError: { status: number; body: unknown };
};

export const RECORDED: Record<Platform, Recorded> = {
  tiktok: {
    token: {
      access_token: "act.example12345Example12345Example",
      expires_in: 7200,
      open_id: "afd97af1-b87b-48b9-ac98-410aghda5344",
      refresh_expires_in: 15552000,
      refresh_token: "rft.example12345Example12345Example",
      scope: "user.info.basic,user.info.profile",
      token_type: "Bearer",
    },
    identity: {
      data: {
        user: {
          open_id: "afd97af1-b87b-48b9-ac98-410aghda5344",
          username: "tiktok_creator",
          display_name: "TikTok Creator",
        },
      },
      error: { code: "ok", message: "", log_id: "20220829194722CBE87ED59D524E727021" },
    },
    expected: { platform_id: "afd97af1-b87b-48b9-ac98-410aghda5344", handle: "tiktok_creator" },
    tokenError: {
      status: 400,
      body: {
        error: "invalid_grant",
        error_description: "Authorization code is expired.",
        log_id: "202206221854370101130062072500FFA2",
      },
    },
  },
  instagram: {
    token: {
      data: [
        {
          access_token: "EAACEdEose0cBAExampleInstagramToken",
          user_id: "17841405822304914",
          permissions: "instagram_business_basic",
        },
      ],
    },
    identity: { user_id: "17841405822304914", username: "jayposiris", id: "7590403104323344" },
    expected: { platform_id: "17841405822304914", handle: "jayposiris" },
    tokenError: {
      status: 400,
      body: { error_type: "OAuthException", code: 400, error_message: "Invalid authorization code" },
    },
  },
  twitter: {
    token: {
      token_type: "bearer",
      expires_in: 7200,
      access_token:
        "VGNibzFWSWREZm01bjN1N3dicWlNUG1oa2xRRVNNdmVHelJGY2hPWGxNd2dxOjE2MjIxNjA4MjU4MjU6MToxOmF0OjE",
      scope: "tweet.read users.read",
    },
    identity: { data: { id: "2244994945", name: "Developers", username: "XDevelopers" } },
    expected: { platform_id: "2244994945", handle: "XDevelopers", name: "Developers" },
    tokenError: {
      status: 400,
      body: {
        error: "invalid_request",
        error_description: "Value passed for the authorization code was invalid.",
      },
    },
  },
  linkedin: {
    token: {
      access_token: "AQUvlL_DYEzvT2wz1QJiEPeLioeA",
      expires_in: 5184000,
      scope: "openid,profile",
      token_type: "Bearer",
      id_token: "eyJ6aXAiOiJERUYiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiZDM3ZjYxYjk2In0.example",
    },
    identity: {
      sub: "782bbtaQ",
      name: "John Doe",
      given_name: "John",
      family_name: "Doe",
      picture:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
      locale: "en-US",
    },
    expected: {
      platform_id: "782bbtaQ",
      handle: "John Doe",
      name: "John Doe",
      avatar:
        "https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/",
    },
    tokenError: {
      status: 400,
      body: {
        error: "invalid_request",
        error_description:
          "Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code.",
      },
    },
  },
  youtube: {
    token: {
      access_token: "1/fFAGRNJru1FTz70BzhT3Zg",
      expires_in: 3920,
      token_type: "Bearer",
      scope: "https://www.googleapis.com/auth/youtube.readonly",
    },
    identity: {
      kind: "youtube#channelListResponse",
      etag: "lW3M6CVVpwLJn0vEwdhXIwhQ9hE",
      pageInfo: { totalResults: 1, resultsPerPage: 5 },
      items: [
        {
          kind: "youtube#channel",
          etag: "Hk6OBzqe7MRm-b6BJ5rC5tDo6RE",
          id: "UC_x5XG1OV2P6uZZ5FSM9Ttw",
          snippet: {
            title: "Google for Developers",
            description: "Subscribe to join a community of creative developers.",
            customUrl: "@googledevelopers",
            publishedAt: "2007-08-23T00:34:43Z",
          },
        },
      ],
    },
    expected: { platform_id: "UC_x5XG1OV2P6uZZ5FSM9Ttw", handle: "googledevelopers" },
    tokenError: { status: 400, body: { error: "invalid_grant", error_description: "Bad Request" } },
  },
  facebook: {
    token: { access_token: "EAABwzLixnjYBOExampleFacebookToken", token_type: "bearer", expires_in: 5183944 },
    identity: { id: "10158467912345678", name: "Ada Lovelace" },
    expected: { platform_id: "10158467912345678", handle: "Ada Lovelace" },
    tokenError: {
      status: 400,
      body: {
        error: {
          message: "This authorization code has been used.",
          type: "OAuthException",
          code: 100,
          fbtrace_id: "AbCdEfGh",
        },
      },
    },
  },
  pinterest: {
    token: {
      access_token: "pina_AMAZVWQWAAExamplePinterestToken",
      refresh_token: "pinr_AQAZVWQWAAExampleRefresh",
      response_type: "authorization_code",
      token_type: "bearer",
      expires_in: 2592000,
      refresh_token_expires_in: 31536000,
      scope: "user_accounts:read",
    },
    identity: {
      account_type: "PINNER",
      id: "516169651290379452",
      profile_image: "https://i.pinimg.com/280x280_RS/42/03/a5/4203a5b4f8d2d9b1c1f9e6a6e2d8b1a4.jpg",
      website_url: "https://www.pinterest.com",
      username: "pinterest",
      about: "",
      business_name: null,
      board_count: 10,
      pin_count: 100,
      follower_count: 1000,
      following_count: 10,
      monthly_views: 1000,
    },
    expected: { platform_id: "516169651290379452", handle: "pinterest" },
    tokenError: { status: 400, body: { code: 1, message: "Invalid authorization code" } },
  },
  threads: {
    token: { access_token: "THQVJExampleThreadsShortLivedToken", user_id: "1234567890123456" },
    identity: { id: "1234567890123456", username: "threadsapitestuser" },
    expected: { platform_id: "1234567890123456", handle: "threadsapitestuser" },
    tokenError: {
      status: 400,
      body: { error: { message: "Invalid verification code format.", type: "OAuthException", code: 100 } },
    },
  },
};
