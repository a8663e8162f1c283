// TikTok API answers as its documentation shows them (developers.tiktok.com: Login Kit token and revoke,
// Content Posting API Query Creator Info / Direct Post / Photo / Get Post Status, Display API List and
// Query Videos, error codes), with look-alike ids and tokens.

export const OPEN_ID = "afd97af1-b87b-48b9-ac98-410aghda5344";
export const HANDLE = "tiktok_creator";
export const ACCESS = "act.example12345Example12345Example";
/** A post id as TikTok sends it: an int64 beyond a JavaScript number's exact range. */
export const POST_ID = "7291234567890123457";
export const UPLOAD_URL = "https://open-upload.tiktokapis.com/video/?upload_id=67890&upload_token=Xza123";

const ok = (log = "202210112248442CB9319E1FB30C1073F1") => ({ code: "ok", message: "", log_id: log });
const failure = (code: string, message: string) => ({
  error: { code, message, log_id: "202206221854370101130062072500FFA2" },
});

export const RECORDED = {
  token: {
    access_token: ACCESS,
    expires_in: 7200,
    open_id: OPEN_ID,
    refresh_expires_in: 15552000,
    refresh_token: "rft.example12345Example12345Example",
    scope: "user.info.basic,user.info.profile,video.publish,video.list",
    token_type: "Bearer",
  },
  identity: {
    data: { user: { open_id: OPEN_ID, username: HANDLE, display_name: "TikTok Creator" } },
    error: ok(),
  },
  /** POST /v2/post/publish/creator_info/query/. */
  creatorInfo: {
    data: {
      creator_avatar_url:
        "https://lf16-tt4d.tiktokcdn.com/obj/tiktok-open-platform/8d5740ac3844be417beeacd0df75aef1",
      creator_username: HANDLE,
      creator_nickname: "TikTok Creator",
      privacy_level_options: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"],
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: true,
      max_video_post_duration_sec: 300,
    },
    error: ok(),
  },
  /** POST /v2/post/publish/video/init/ (FILE_UPLOAD). */
  videoInit: { data: { publish_id: "v_pub_file~v2-1.123456789", upload_url: UPLOAD_URL }, error: ok() },
  /** POST /v2/post/publish/content/init/ (PHOTO, PULL_FROM_URL). */
  photoInit: { data: { publish_id: "p_pub_url~v2.123456789" }, error: ok() },
  /** POST /v2/post/publish/status/fetch/, as raw JSON: the post id is a bare int64. */
  statusComplete: `{"data":{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[${POST_ID}],"uploaded_bytes":1048576},"error":{"code":"ok","message":"","log_id":"202210112248442CB9319E1FB30C1073F3"}}`,
  statusProcessing: {
    data: { status: "PROCESSING_UPLOAD", uploaded_bytes: 10000 },
    error: ok("202210112248442CB9319E1FB30C1073F4"),
  },
  statusCompleteNoId: {
    data: { status: "PUBLISH_COMPLETE", publicaly_available_post_id: [] },
    error: ok("202210112248442CB9319E1FB30C1073F5"),
  },
  statusFailed: (reason = "picture_size_check_failed") => ({
    data: { status: "FAILED", fail_reason: reason, publicaly_available_post_id: [], uploaded_bytes: 10000 },
    error: ok("202210112248442CB9319E1FB30C1073F3"),
  }),
  /** POST /v2/video/list/?fields=id,title,video_description,share_url,create_time. */
  videoList: {
    data: {
      videos: [
        {
          id: POST_ID,
          title: "Our launch, in fifteen seconds",
          video_description: "Our launch, in fifteen seconds",
          share_url: `https://www.tiktok.com/@${HANDLE}/video/${POST_ID}?utm_campaign=tt4d_open_api&utm_source=aw46lwwtsqjeapig`,
          create_time: 1714640400,
        },
        {
          id: "7291234567890120000",
          title: "",
          video_description: `${"A long caption that TikTok's Display API cuts. ".repeat(4)}`.slice(0, 150),
          share_url: `https://www.tiktok.com/@${HANDLE}/video/7291234567890120000`,
          create_time: 1714550400,
        },
      ],
      cursor: 1714550400000,
      has_more: false,
    },
    error: ok(),
  },
  /** POST /v2/video/query/?fields=id,like_count,comment_count,share_count,view_count. */
  videoQuery: {
    data: { videos: [{ id: POST_ID, like_count: 120, comment_count: 14, share_count: 9, view_count: 5400 }] },
    error: ok(),
  },
  errors: {
    postCap: failure(
      "spam_risk_too_many_posts",
      "The daily post cap from the API is reached for the current user.",
    ),
    rateLimited: failure("rate_limit_exceeded", "API rate limit was exceeded."),
    tokenInvalid: failure("access_token_invalid", "The access token is invalid or not found in the request."),
    scopeMissing: failure(
      "scope_not_authorized",
      "The user did not authorize the scope required for completing this request.",
    ),
    privacyMismatch: failure(
      "privacy_level_option_mismatch",
      "privacy_level is not one of the privacy_level_options.",
    ),
    internal: failure("internal_error", "Something went wrong. Please try again later."),
    revokeInvalid: {
      error: "invalid_request",
      error_description: "The request parameters are malformed.",
      log_id: "2023",
    },
  },
};
