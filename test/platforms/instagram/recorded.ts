// Instagram API with Instagram Login answers as the docs show them (developers.facebook.com › Instagram
// Platform › Content Publishing; IG Container; Instagram Media; Media Insights; Comments; Access Token;
// Refresh Access Token; Error Codes), with look-alike ids and tokens.
export const IG_USER_ID = "17841405822304914";
export const HANDLE = "jayposiris";
export const SHORT_LIVED = "EAACEdEose0cBAExampleInstagramToken";
export const LONG_LIVED = "IGAAJLongLivedInstagramUserToken";
export const IG_TOKEN = "IGAAJStoredInstagramUserToken";
export const MEDIA_ID = "17920238422030506";
export const PERMALINK = "https://www.instagram.com/p/C4vNsUoLqkZ/";

const error = (message: string, code: number, extra: Record<string, unknown> = {}) => ({
  error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "A6LJylpZRKw2xKLFsAP-cJh" },
});

export const RECORDED = {
  longLived: { access_token: LONG_LIVED, token_type: "bearer", expires_in: 5183944 },
  refreshed: { access_token: "IGAAJRefreshedInstagramUserToken", token_type: "bearer", expires_in: 5183944 },
  quota: (usage: number) => ({
    data: [{ quota_usage: usage, config: { quota_total: 100, quota_duration: 86400 } }],
  }),
  container: (id: string) => ({ id }),
  status: (id: string, status_code: string, status?: string) => ({
    status_code,
    ...(status ? { status } : {}),
    id,
  }),
  published: { id: MEDIA_ID },
  permalink: { permalink: PERMALINK, id: MEDIA_ID },
  comment: (id: string) => ({ id }),
  media: {
    data: [
      { id: "17895695668004550", caption: "Behind the scenes", permalink: "https://www.instagram.com/p/B1/" },
      { id: MEDIA_ID, caption: "Golden hour on the pier", permalink: PERMALINK },
      { id: "17899305451014820" },
    ],
    paging: { cursors: { before: "QVFIUk", after: "QVFIUl" } },
  },
  counts: (type: string) => ({ like_count: 12, comments_count: 3, media_product_type: type, id: MEDIA_ID }),
  insights: {
    data: [
      {
        name: "views",
        period: "lifetime",
        values: [{ value: 500 }],
        title: "Views",
        id: `${MEDIA_ID}/insights/views/lifetime`,
      },
      {
        name: "reach",
        period: "lifetime",
        values: [{ value: 410 }],
        title: "Accounts reached",
        id: `${MEDIA_ID}/insights/reach/lifetime`,
      },
      {
        name: "likes",
        period: "lifetime",
        values: [{ value: 14 }],
        title: "Likes",
        id: `${MEDIA_ID}/insights/likes/lifetime`,
      },
      {
        name: "comments",
        period: "lifetime",
        values: [{ value: 4 }],
        title: "Comments",
        id: `${MEDIA_ID}/insights/comments/lifetime`,
      },
      {
        name: "shares",
        period: "lifetime",
        values: [{ value: 2 }],
        title: "Shares",
        id: `${MEDIA_ID}/insights/shares/lifetime`,
      },
      {
        name: "saved",
        period: "lifetime",
        values: [{ value: 5 }],
        title: "Saved",
        id: `${MEDIA_ID}/insights/saved/lifetime`,
      },
    ],
  },
  storyInsights: {
    data: [
      {
        name: "views",
        period: "lifetime",
        values: [{ value: 0 }],
        id: `${MEDIA_ID}/insights/views/lifetime`,
      },
      {
        name: "reach",
        period: "lifetime",
        values: [{ value: 80 }],
        id: `${MEDIA_ID}/insights/reach/lifetime`,
      },
      {
        name: "shares",
        period: "lifetime",
        values: [{ value: 1 }],
        id: `${MEDIA_ID}/insights/shares/lifetime`,
      },
    ],
  },
  comments: [
    {
      data: [
        {
          timestamp: "2026-03-02T10:15:00+0000",
          text: "Stunning light!",
          id: "17870913679156914",
          username: "grace",
          from: { id: "17841400000000001", username: "grace" },
          hidden: false,
          replies: {
            data: [
              {
                timestamp: "2026-03-02T10:20:00+0000",
                text: "Thank you!",
                id: "17870913679156917",
                username: HANDLE,
                from: { id: IG_USER_ID, username: HANDLE },
                parent_id: "17870913679156914",
                hidden: false,
              },
            ],
          },
        },
        {
          timestamp: "2026-03-02T10:00:00+0000",
          text: "Where is this?",
          id: "17870913679156915",
          hidden: true,
        },
      ],
      paging: { cursors: { before: "QVFIUm", after: "QVFIUn" }, next: "https://graph.instagram.com/v25.0/…" },
    },
    {
      data: [
        {
          timestamp: "2026-03-01T18:00:00+0000",
          text: "Thanks all",
          id: "17870913679156916",
          username: HANDLE,
        },
      ],
      paging: { cursors: { before: "QVFIUo", after: "QVFIUp" } },
    },
  ],
  errors: {
    publishingLimit: error("Application request limit reached", 9, {
      error_subcode: 2207042,
      is_transient: false,
      error_user_title: "Reached publishing limit",
      error_user_msg:
        "You reached maximum number of posts that is allowed to be published by API in 24 hours.",
    }),
    imageTooLarge: error("The image size is too large.", 36000, {
      error_subcode: 2207004,
      is_transient: false,
      error_user_title: "Image size too large",
      error_user_msg: "The image is too large to download. It should be less than 8 MiB.",
    }),
    restricted: error("We restrict certain activity to protect our community.", 4, {
      error_subcode: 2207051,
    }),
    serverError: error("Instagram server error. Try again.", -1, { error_subcode: 2207001 }),
    expired: error("Error validating access token: Session has expired.", 190, { error_subcode: 463 }),
    notEnoughViewers: error("(#10) Not enough viewers for the media to show insights", 10),
    userLimit: error("(#17) User request limit reached", 17, { is_transient: true }),
  },
};
