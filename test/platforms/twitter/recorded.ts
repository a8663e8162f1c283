// X API v2 answers as its documentation shows them (docs.x.com › X API: Create or Edit Post, Initialize /
// Append / Finalize media upload, Get media upload status, User posts timeline, Post lookup, Recent
// search, the metrics guide; problem details as X sends them), with look-alike ids and tokens.

export const USER_ID = "2244994945";
export const HANDLE = "XDevelopers";
export const TOKEN =
  "VGNibzFWSWREZm01bjN1N3dicWlNUG1oa2xRRVNNdmVHelJGY2hPWGxNd2dxOjE2MjIxNjA4MjU4MjU6MToxOmF0OjE";
export const REFRESH =
  "bWRWa3gzdnk3WHRGU1o0bmRRcTJ5VUxWX1lZTDdJSUtmaWcxbTVxdEFXcW5tOjE2MjIxNDc3NDM5MTQ6MToxOnJ0OjE";

/** POST /2/oauth2/token with offline.access: a refresh token comes along. */
export const tokenAnswer = {
  token_type: "bearer",
  expires_in: 7200,
  access_token: TOKEN,
  scope: "tweet.read tweet.write users.read media.write offline.access",
  refresh_token: REFRESH,
};

/** GET /2/users/me?user.fields=profile_image_url,verified. */
export const me = {
  data: {
    id: USER_ID,
    name: "Developers",
    username: HANDLE,
    profile_image_url: "https://pbs.twimg.com/profile_images/1683325380441128960/yRsRRjGO_normal.jpg",
    verified: true,
  },
};

/** POST /2/tweets: 201 Created. */
export const created = (id: string, text = "Hello") => ({ data: { id, text, edit_history_tweet_ids: [id] } });

/** POST /2/media/upload/initialize. */
export const initialized = (id: string) => ({
  data: { id, media_key: `7_${id}`, expires_after_secs: 1295999 },
});

/** POST /2/media/upload/{id}/append. */
export const appendedAnswer = { data: { expires_at: 1735689600 } };

/** POST /2/media/upload/{id}/finalize: an image is ready at once; a video is processed first. */
export const finalizedImage = (id: string) => ({
  data: { id, media_key: `3_${id}`, size: 1024, expires_after_secs: 86400 },
});
export const processing = (id: string, state: string, check = 1, extra: Record<string, unknown> = {}) => ({
  data: {
    id,
    media_key: `7_${id}`,
    expires_after_secs: 3600,
    size: 1048576,
    processing_info: {
      state,
      check_after_secs: check,
      progress_percent: state === "succeeded" ? 100 : 40,
      ...extra,
    },
  },
});

/** GET /2/users/{id}/tweets?tweet.fields=referenced_tweets,note_tweet (text as X renders it). */
export const userPosts = {
  data: [
    {
      id: "1880028106020515999",
      text: "Thanks @ana! https://t.co/56a0vZUx7i",
      edit_history_tweet_ids: ["1880028106020515999"],
      referenced_tweets: [{ type: "replied_to", id: "1880028106020515777" }],
    },
    {
      id: "1880028106020515888",
      text: "Launch day &amp; cake &lt;3 — read https://t.co/abcDEF123 https://t.co/media456",
      edit_history_tweet_ids: ["1880028106020515888"],
    },
    {
      id: "1346889436626259968",
      text: "Learn how to use the user Tweet timeline",
      edit_history_tweet_ids: ["1346889436626259968"],
    },
  ],
  meta: { result_count: 3, newest_id: "1880028106020515999", oldest_id: "1346889436626259968" },
};

/** GET /2/tweets/{id}?tweet.fields=public_metrics. */
export const metrics = {
  data: {
    id: "1346889436626259968",
    text: "Learn how to use the user Tweet timeline",
    edit_history_tweet_ids: ["1346889436626259968"],
    public_metrics: {
      retweet_count: 50,
      reply_count: 12,
      like_count: 234,
      quote_count: 5,
      bookmark_count: 9,
      impression_count: 6212,
    },
  },
};

/** GET /2/tweets/search/recent?query=conversation_id:… with expansions=author_id, two pages. */
export const conversationPage1 = {
  data: [
    {
      id: "1880030000000000003",
      text: "Congrats &amp; good luck!",
      author_id: "9876543210",
      created_at: "2025-01-15T10:32:00.000Z",
      referenced_tweets: [{ type: "replied_to", id: "1880028106020515840" }],
      in_reply_to_user_id: USER_ID,
      edit_history_tweet_ids: ["1880030000000000003"],
    },
    {
      id: "1880030000000000002",
      text: "Part two of my thread",
      author_id: USER_ID,
      created_at: "2025-01-15T10:31:00.000Z",
      referenced_tweets: [{ type: "replied_to", id: "1880028106020515840" }],
      in_reply_to_user_id: USER_ID,
      edit_history_tweet_ids: ["1880030000000000002"],
    },
  ],
  includes: {
    users: [
      { id: "9876543210", name: "Ana Lyst", username: "analyst" },
      { id: USER_ID, name: "Developers", username: HANDLE },
    ],
  },
  meta: {
    newest_id: "1880030000000000003",
    oldest_id: "1880030000000000002",
    result_count: 2,
    next_token: "b26v89c19zqg8o3fpzbkk",
  },
};
export const conversationPage2 = {
  data: [
    {
      id: "1880030000000000001",
      text: "First!",
      author_id: "1111111111",
      created_at: "2025-01-15T10:30:00.000Z",
      edit_history_tweet_ids: ["1880030000000000001"],
      referenced_tweets: [{ type: "replied_to", id: "1880028106020515840" }],
      in_reply_to_user_id: USER_ID,
    },
  ],
  includes: { users: [{ id: "1111111111", name: "", username: "early_bird" }] },
  meta: { newest_id: "1880030000000000001", oldest_id: "1880030000000000001", result_count: 1 },
};

/** The account's own answer to a follower's reply (a reply to someone else: a comment, `is_own`). */
export const ownAnswer = {
  id: "1880030000000000004",
  text: "Thanks!",
  author_id: USER_ID,
  created_at: "2025-01-15T10:30:30.000Z",
  edit_history_tweet_ids: ["1880030000000000004"],
  referenced_tweets: [{ type: "replied_to", id: "1880030000000000001" }],
  in_reply_to_user_id: "1111111111",
};

/** POST /2/oauth2/revoke. */
export const revoked = { revoked: true };

// Failures, as X sends them.
export const duplicate = {
  detail: "You are not allowed to create a Tweet with duplicate content.",
  type: "about:blank",
  title: "Forbidden",
  status: 403,
};
export const invalidRequest = {
  errors: [
    {
      parameters: { "reply.in_reply_to_tweet_id": ["99"] },
      message: "Your Tweet cannot be posted because the Tweet you are replying to has been deleted.",
    },
  ],
  title: "Invalid Request",
  detail: "One or more parameters to your request was invalid.",
  type: "https://api.twitter.com/2/problems/invalid-request",
};
export const unauthorized = {
  title: "Unauthorized",
  type: "about:blank",
  status: 401,
  detail: "Unauthorized",
};
export const tooMany = {
  title: "Too Many Requests",
  detail: "Too Many Requests",
  type: "about:blank",
  status: 429,
};
export const usageCapped = {
  account_id: 1234567,
  product_name: "standard-basic",
  title: "UsageCapExceeded",
  period: "Monthly",
  scope: "Product",
  detail: "Usage cap exceeded: Monthly product cap",
  type: "https://api.twitter.com/2/problems/usage-capped",
};
export const serviceUnavailable = {
  title: "Service Unavailable",
  detail: "Service Unavailable",
  type: "about:blank",
  status: 503,
};
export const notFound = {
  errors: [
    {
      value: "1346889436626259968",
      detail: "Could not find tweet with id: [1346889436626259968].",
      title: "Not Found Error",
      resource_type: "tweet",
      parameter: "id",
      resource_id: "1346889436626259968",
      type: "https://api.twitter.com/2/problems/resource-not-found",
    },
  ],
};
