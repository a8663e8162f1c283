// Facebook Graph API answers as the docs show them (developers.facebook.com › Pages API › Posts,
// Comments; Page Insights; Video API › Reels Publishing; Facebook Stories API; Graph API › Handling
// Errors), with look-alike ids and tokens.
export const PAGE_ID = "104857391122334";
export const PAGE_TOKEN = "EAAPageTokenForAdasBakery";
export const USER_TOKEN = "EAABwzLixnjYBOExampleFacebookToken";
export const LONG_LIVED = "EAABwzLixnjYBOLongLivedUserToken";
export const POST_ID = `${PAGE_ID}_987654321098765`;
export const PERMALINK = `https://www.facebook.com/${PAGE_ID}/posts/987654321098765`;

const error = (message: string, code: number, extra: Record<string, unknown> = {}) => ({
  error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "AbCdEfGhIjK" },
});

export const RECORDED = {
  longLived: { access_token: LONG_LIVED, token_type: "bearer", expires_in: 5183944 },
  pages: [
    {
      data: [
        {
          access_token: PAGE_TOKEN,
          category: "Bakery",
          category_list: [{ id: "2203", name: "Bakery" }],
          name: "Ada's Bakery",
          id: PAGE_ID,
          tasks: ["ANALYZE", "ADVERTISE", "MODERATE", "CREATE_CONTENT", "MANAGE"],
          picture: {
            data: {
              height: 50,
              is_silhouette: false,
              url: "https://scontent.xx.fbcdn.net/v/t39.30808-1/ada.jpg",
              width: 50,
            },
          },
        },
        {
          access_token: "EAAPageTokenAnalystOnly",
          name: "Read Only Page",
          id: "104857391100000",
          tasks: ["ANALYZE"],
        },
      ],
      paging: {
        cursors: { before: "QVFIUmx1WTBpMGpJWXprYzVYaVhabk55dVpQ", after: "QVFIUkxxNGZAzSnJ5SHdl" },
        next: `https://graph.facebook.com/v25.0/me/accounts?access_token=${LONG_LIVED}&limit=100&after=QVFIUkxxNGZAzSnJ5SHdl`,
      },
    },
    {
      data: [{ access_token: "EAAPageTokenSecondPage", name: "Ada's Second Shop", id: "104857391155555" }],
      paging: { cursors: { before: "QVFIUk5", after: "QVFIUk6" } },
    },
  ],
  /** GET /me/businesses of a user in no business portfolio. */
  noBusinesses: { data: [] },
  /** GET /me/businesses (Business Manager API › User › businesses). */
  businesses: {
    data: [{ id: "2233445566001", name: "Ada's Group" }],
    paging: { cursors: { before: "QVFIUmJ1", after: "QVFIUmJ1" } },
  },
  /** GET /{business-id}/owned_pages: a Page the business owns, one also in /me/accounts, one the user may only analyse. */
  ownedPages: {
    data: [
      {
        access_token: "EAAPageTokenBusinessOwned",
        name: "Ada's Wholesale",
        id: "104857391177777",
        username: "adaswholesale",
        tasks: ["CREATE_CONTENT", "MANAGE"],
      },
      { access_token: "EAAPageTokenSecondPage", name: "Ada's Second Shop", id: "104857391155555" },
      {
        access_token: "EAAPageTokenOwnedAnalyst",
        name: "Ada's Archive",
        id: "104857391188888",
        tasks: ["ANALYZE"],
      },
    ],
    paging: { cursors: { before: "QVFIUm93", after: "QVFIUm93" } },
  },
  /** GET /{business-id}/client_pages: a client's Page the business works on. */
  clientPages: {
    data: [{ access_token: "EAAPageTokenClient", name: "Client Cafe", id: "104857391199999" }],
    paging: { cursors: { before: "QVFIUmNs", after: "QVFIUmNs" } },
  },
  feedPost: { id: POST_ID },
  photo: { id: "1122334455667788", post_id: `${PAGE_ID}_1122334455667788` },
  unpublishedPhoto: (id: string) => ({ id }),
  video: { id: "2233445566778899" },
  uploadStart: (videoId: string) => ({
    video_id: videoId,
    upload_url: `https://rupload.facebook.com/video-upload/v25.0/${videoId}`,
  }),
  uploaded: { success: true },
  finished: { success: true },
  storyPublished: { success: true, post_id: "5566778899001122" },
  permalink: (id: string, url = PERMALINK) => ({ permalink_url: url, id }),
  comment: (id: string) => ({ id }),
  posts: {
    data: [
      {
        created_time: "2026-03-02T09:00:00+0000",
        message: "Fresh bread every morning",
        id: `${PAGE_ID}_111`,
        permalink_url: `https://www.facebook.com/${PAGE_ID}/posts/111`,
      },
      {
        created_time: "2026-03-01T09:00:00+0000",
        message: "Our spring menu is out",
        id: POST_ID,
        permalink_url: PERMALINK,
      },
    ],
    paging: { cursors: { before: "QVFIU0", after: "QVFIU1" } },
  },
  reels: {
    data: [
      {
        id: "3344556677889900",
        description: "Kneading, in 30 seconds",
        permalink_url: "/reel/3344556677889900/",
      },
    ],
    paging: { cursors: { before: "MA", after: "MQ" } },
  },
  noReels: { data: [] },
  /**
   * GET /{page-id}/posts?fields=id,message,permalink_url,attachments{target{id},subattachments{target{id}}}
   * as Graph API › Story Attachment shapes the edge: a captionless single photo (its attachment targets
   * the photo), a multi-photo post with no message (one album attachment, a subattachment per photo).
   */
  postsWithAttachments: {
    data: [
      {
        id: `${PAGE_ID}_222`,
        permalink_url: `https://www.facebook.com/${PAGE_ID}/posts/222`,
        attachments: {
          data: [
            {
              media_type: "photo",
              type: "photo",
              target: { id: "777", url: "https://www.facebook.com/photo.php?fbid=777" },
            },
          ],
        },
      },
      {
        id: POST_ID,
        permalink_url: PERMALINK,
        attachments: {
          data: [
            {
              media_type: "album",
              type: "album",
              target: {
                id: "1357924680",
                url: `https://www.facebook.com/media/set/?set=pcb.987654321098765`,
              },
              subattachments: {
                data: [
                  {
                    media_type: "photo",
                    type: "photo",
                    target: { id: "501", url: "https://www.facebook.com/photo.php?fbid=501" },
                  },
                  {
                    media_type: "photo",
                    type: "photo",
                    target: { id: "502", url: "https://www.facebook.com/photo.php?fbid=502" },
                  },
                ],
              },
            },
          ],
        },
      },
    ],
    paging: { cursors: { before: "QVFIU0", after: "QVFIU1" } },
  },
  /** GET /{page-id}/video_reels: an older reel of the same words above the one a session made. */
  reelsOfSameText: {
    data: [
      {
        id: "3344556677889900",
        description: "Kneading, in 30 seconds",
        permalink_url: "/reel/3344556677889900/",
      },
      {
        id: "3344556677889911",
        description: "Kneading, in 30 seconds",
        permalink_url: "/reel/3344556677889911/",
      },
    ],
    paging: { cursors: { before: "MA", after: "MQ" } },
  },
  engagement: {
    reactions: { data: [], summary: { total_count: 42, viewer_reaction: "NONE" } },
    comments: { data: [], summary: { order: "ranked", total_count: 7, can_comment: true } },
    shares: { count: 3 },
    id: POST_ID,
  },
  insights: {
    data: [
      {
        name: "post_media_view",
        period: "lifetime",
        values: [{ value: 1200 }],
        title: "Lifetime Media Views",
        description: "Lifetime: The number of times your post was on screen.",
        id: `${POST_ID}/insights/post_media_view/lifetime`,
      },
    ],
    paging: { previous: "https://graph.facebook.com/…", next: "https://graph.facebook.com/…" },
  },
  videoInsights: {
    data: [
      {
        name: "total_video_views",
        period: "lifetime",
        values: [{ value: 89 }],
        title: "Lifetime Total Video Views",
        id: "2233445566778899/video_insights/total_video_views/lifetime",
      },
    ],
  },
  comments: [
    {
      data: [
        {
          created_time: "2026-03-02T10:15:00+0000",
          from: { name: "Grace Hopper", id: "6677889900" },
          message: "Can I order the rye loaf?",
          permalink_url: "https://www.facebook.com/100090000000001/posts/987654321098765?comment_id=1001",
          is_hidden: false,
          id: "987654321098765_1001",
        },
        {
          created_time: "2026-03-02T10:00:00+0000",
          message: "Lovely!",
          parent: { id: "987654321098765_998" },
          is_hidden: true,
          id: "987654321098765_1000",
        },
      ],
      paging: {
        cursors: { before: "WTI5dGJXVnVkRjlqZAFhKemIzSTZANVEF3TlRBd01E", after: "MjA" },
        next: "https://graph.facebook.com/v25.0/…/comments?after=MjA",
      },
    },
    {
      data: [
        {
          created_time: "2026-03-01T18:00:00+0000",
          from: { name: "Ada's Bakery", id: PAGE_ID },
          message: "Thank you all!",
          id: "987654321098765_999",
        },
      ],
      paging: { cursors: { before: "MjE", after: "MjI" } },
    },
  ],
  errors: {
    expired: error(
      "Error validating access token: Session has expired on Friday, 06-Mar-26 10:00:00 PST.",
      190,
      {
        error_subcode: 463,
      },
    ),
    revoked: error("Error validating access token: The user has not authorized application 123.", 190, {
      error_subcode: 458,
    }),
    throttled: error(
      "(#80001) There have been too many calls to this Page account. Wait a bit and try again.",
      80001,
    ),
    appLimit: error("(#4) Application request limit reached", 4, { is_transient: true }),
    blocked: error("It looks like you were misusing this feature by going too fast.", 368, {
      error_subcode: 1390008,
    }),
    duplicate: error("(#506) Duplicate status message", 506),
    invalid: error("(#100) Invalid parameter", 100, {
      error_user_title: "Missing Message Or Attachment",
      error_user_msg: "Please enter a message or attach media.",
    }),
    unknown: error("An unknown error has occurred.", 1, { is_transient: true }),
  },
  /** X-Business-Use-Case-Usage of a throttled Page: 19 minutes to regain access. */
  bucUsage: JSON.stringify({
    [PAGE_ID]: [
      {
        type: "pages",
        call_count: 100,
        total_cputime: 25,
        total_time: 25,
        estimated_time_to_regain_access: 19,
      },
    ],
  }),
};
