// Threads API answers as its documentation shows them (developers.facebook.com › Threads: Long-Lived
// Tokens, Posts, Troubleshooting, Retrieve Posts, Insights, Replies and Conversations), with look-alike
// ids and tokens.

export const USER_ID = "1234567890123456";
export const HANDLE = "threadsapitestuser";
export const LONG_LIVED = "THQVJExampleThreadsLongLivedToken";

export const RECORDED = {
  /** POST /oauth/access_token: the short-lived token of the code exchange. */
  shortLived: { access_token: "THQVJExampleThreadsShortLivedToken", user_id: USER_ID },
  identity: { id: USER_ID, username: HANDLE },
  /** GET /access_token?grant_type=th_exchange_token and /refresh_access_token. */
  longLived: { access_token: LONG_LIVED, token_type: "bearer", expires_in: 5183944 },
  refreshed: { access_token: "THQVJExampleThreadsRefreshedToken", token_type: "bearer", expires_in: 5183944 },
  /** POST /{user-id}/threads: a media container. */
  container: (id: string) => ({ id }),
  /** POST /{user-id}/threads_publish: the Threads media id. */
  published: (id: string) => ({ id }),
  /** GET /{container-id}?fields=status,error_message. */
  finished: { status: "FINISHED", id: "17889615691921648" },
  inProgress: { status: "IN_PROGRESS", id: "17889615691921648" },
  failed: { status: "ERROR", id: "17889615691921648", error_message: "FAILED_DOWNLOADING_VIDEO" },
  /** GET /{media-id}?fields=permalink,shortcode. */
  permalink: (id: string, shortcode = "abcdefg") => ({
    permalink: `https://www.threads.net/@${HANDLE}/post/${shortcode}`,
    shortcode,
    id,
  }),
  /** GET /{user-id}/threads?fields=…: the account's threads, newest first. */
  threadsList: {
    data: [
      {
        id: "1234567",
        permalink: `https://www.threads.net/@${HANDLE}/post/abcdefg`,
        username: HANDLE,
        text: "Today Is Monday",
        shortcode: "abcdefg",
      },
      {
        id: "1234568",
        permalink: `https://www.threads.net/@${HANDLE}/post/hijklmn`,
        username: HANDLE,
        text: "Launch day",
        shortcode: "hijklmn",
      },
    ],
    paging: { cursors: { before: "BEFORE_CURSOR", after: "AFTER_CURSOR" } },
  },
  /** GET /{media-id}/replies. */
  replies: {
    data: [
      { id: "2000001", text: "Launch day", username: "someoneelse", is_reply_owned_by_me: false },
      {
        id: "2000002",
        text: "Thanks for reading!",
        username: HANDLE,
        is_reply_owned_by_me: true,
        permalink: `https://www.threads.net/@${HANDLE}/post/plugged`,
      },
    ],
    paging: { cursors: { before: "BEFORE_CURSOR", after: "AFTER_CURSOR" } },
  },
  /** GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes,shares. */
  insights: {
    data: [
      {
        name: "views",
        period: "lifetime",
        values: [{ value: 4523 }],
        title: "Views",
        id: "1/insights/views/lifetime",
      },
      {
        name: "likes",
        period: "lifetime",
        values: [{ value: 187 }],
        title: "Likes",
        id: "1/insights/likes/lifetime",
      },
      {
        name: "replies",
        period: "lifetime",
        values: [{ value: 42 }],
        title: "Replies",
        id: "1/insights/replies/lifetime",
      },
      {
        name: "reposts",
        period: "lifetime",
        values: [{ value: 23 }],
        title: "Reposts",
        id: "1/insights/reposts/lifetime",
      },
      {
        name: "quotes",
        period: "lifetime",
        values: [{ value: 8 }],
        title: "Quotes",
        id: "1/insights/quotes/lifetime",
      },
      {
        name: "shares",
        period: "lifetime",
        values: [{ value: 5 }],
        title: "Shares",
        id: "1/insights/shares/lifetime",
      },
    ],
  },
  /** GET /{media-id}/conversation?reverse=true: two pages. */
  conversation: [
    {
      data: [
        {
          id: "3000003",
          text: "Love it",
          username: "fan_one",
          timestamp: "2024-05-02T10:15:00+0000",
          is_reply_owned_by_me: false,
          permalink: "https://www.threads.com/@fan_one/post/C9xLoveIt",
          replied_to: { id: "3000001" },
          hide_status: "NOT_HUSHED",
        },
        {
          id: "3000002",
          text: "Part two",
          username: HANDLE,
          timestamp: "2024-05-02T10:00:00+0000",
          is_reply_owned_by_me: true,
          replied_to: { id: "1234567" },
        },
      ],
      paging: {
        cursors: { before: "BEFORE_1", after: "AFTER_1" },
        next: "https://graph.threads.net/v1.0/1/conversation?after=AFTER_1",
      },
    },
    {
      data: [
        {
          id: "3000001",
          text: "First!",
          username: "fan_two",
          timestamp: "2024-05-01T09:00:00+0000",
          is_reply_owned_by_me: false,
          replied_to: { id: "1234567" },
          hide_status: "HIDDEN",
        },
      ],
      paging: { cursors: { before: "BEFORE_2", after: "AFTER_2" } },
    },
  ],
  errors: {
    /** A content refusal (code 100, invalid parameter). */
    invalidParameter: {
      error: {
        message: "The parameter image_url is required.",
        type: "OAuthException",
        code: 100,
        fbtrace_id: "AbCdEf1",
      },
    },
    /** An expired token. */
    expiredToken: {
      error: {
        message: "Error validating access token: Session has expired on Friday, 03-May-24 10:00:00 PDT.",
        type: "OAuthException",
        code: 190,
        error_subcode: 463,
        fbtrace_id: "AbCdEf2",
      },
    },
    /** The app's call count is spent. */
    rateLimited: {
      error: {
        message: "(#4) Application request limit reached",
        type: "OAuthException",
        is_transient: true,
        code: 4,
        fbtrace_id: "AbCdEf3",
      },
    },
    /** A temporary fault. */
    temporary: {
      error: {
        message: "An unexpected error has occurred. Please retry your request later.",
        type: "OAuthException",
        is_transient: true,
        code: 2,
        fbtrace_id: "AbCdEf4",
      },
    },
  },
};
