// YouTube Data API v3 answers as the documentation shows them (resource representations of Videos,
// Channels, PlaylistItems, CommentThreads; the Errors page; Google OAuth's token answer), with
// look-alike ids and tokens.
export const CHANNEL_ID = "UC_x5XG1OV2P6uZZ5FSM9Ttw";
export const VIDEO_ID = "Ks-_Mh1QhMc";
export const REVOKE_URL = "https://oauth2.googleapis.com/revoke";
export const UPLOADS = "UU_x5XG1OV2P6uZZ5FSM9Ttw";
export const SESSION_URL =
  "https://www.googleapis.com/upload/youtube/v3/videos?uploadType=resumable&part=snippet%2Cstatus&upload_id=AEnB2UexampleUploadId";

export const token = {
  access_token: "ya29.a0AfB_byExampleYouTubeAccessToken",
  expires_in: 3599,
  refresh_token: "1//0gExampleYouTubeRefreshToken",
  scope:
    "https://www.googleapis.com/auth/youtube.upload https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/youtube.force-ssl",
  token_type: "Bearer",
};

export const channels = {
  kind: "youtube#channelListResponse",
  etag: "lW3M6CVVpwLJn0vEwdhXIwhQ9hE",
  pageInfo: { totalResults: 1, resultsPerPage: 5 },
  items: [
    {
      kind: "youtube#channel",
      etag: "Hk6OBzqe7MRm-b6BJ5rC5tDo6RE",
      id: CHANNEL_ID,
      snippet: {
        title: "Google for Developers",
        description: "Subscribe to join a community of creative developers.",
        customUrl: "@googledevelopers",
        publishedAt: "2007-08-23T00:34:43Z",
        thumbnails: {
          default: {
            url: "https://yt3.ggpht.com/ytc/example=s88-c-k-c0x00ffffff-no-rj",
            width: 88,
            height: 88,
          },
          medium: {
            url: "https://yt3.ggpht.com/ytc/example=s240-c-k-c0x00ffffff-no-rj",
            width: 240,
            height: 240,
          },
          high: {
            url: "https://yt3.ggpht.com/ytc/example=s800-c-k-c0x00ffffff-no-rj",
            width: 800,
            height: 800,
          },
        },
      },
      contentDetails: { relatedPlaylists: { likes: "", uploads: UPLOADS } },
    },
  ],
};

/** videos.insert's answer: the video resource (snippet, status) it created. */
export const inserted = {
  kind: "youtube#video",
  etag: "Bdx4f4ps3xCOOo1WZ91nTLkRZ_c",
  id: VIDEO_ID,
  snippet: {
    publishedAt: "2025-05-02T10:00:00Z",
    channelId: CHANNEL_ID,
    title: "Launch day",
    description: "Launch day\nWe shipped it.",
    tags: ["launch", "sp-41-1"],
    categoryId: "22",
  },
  status: {
    uploadStatus: "uploaded",
    privacyStatus: "public",
    license: "youtube",
    embeddable: true,
    publicStatsViewable: true,
    selfDeclaredMadeForKids: false,
  },
};

export const playlistItems = {
  kind: "youtube#playlistItemListResponse",
  etag: "tmSJMm9_KwkNTPkpdspUkQiQtuA",
  pageInfo: { totalResults: 2, resultsPerPage: 50 },
  items: [
    {
      kind: "youtube#playlistItem",
      etag: "Qz6yzEfhxHA3hOsXxDmRbL1cCkg",
      id: "VVVfeDVYRzFPVjJQNnVaWjVGU005VHR3LktzLV9NaDFRaE1j",
      contentDetails: { videoId: VIDEO_ID, videoPublishedAt: "2025-05-02T10:00:00Z" },
    },
    {
      kind: "youtube#playlistItem",
      etag: "c7eWU7H3yeSq6r7kuRtdVj9dT3w",
      id: "VVVfeDVYRzFPVjJQNnVaWjVGU005VHR3LmRRdzR3OVdnWGNR",
      contentDetails: { videoId: "dQw4w9WgXcQ", videoPublishedAt: "2025-04-01T10:00:00Z" },
    },
  ],
};

export const videoSnippets = (tags: string[]) => ({
  kind: "youtube#videoListResponse",
  etag: "YDmBGf3A9UjXt0pT9zYnsnVPXcY",
  items: [
    { kind: "youtube#video", id: VIDEO_ID, snippet: { title: "Launch day", tags } },
    { kind: "youtube#video", id: "dQw4w9WgXcQ", snippet: { title: "Older", tags: ["older"] } },
  ],
  pageInfo: { totalResults: 2, resultsPerPage: 2 },
});

export const statistics = {
  kind: "youtube#videoListResponse",
  etag: "p2Xh0d3NVvwQ6cRqmWqB2Hx4mEE",
  items: [
    {
      kind: "youtube#video",
      etag: "EE5Qb0pN4dG2EE7kJ1cZtv2kKLE",
      id: VIDEO_ID,
      statistics: {
        viewCount: "1000",
        likeCount: "40",
        dislikeCount: "0",
        favoriteCount: "0",
        commentCount: "10",
      },
    },
  ],
  pageInfo: { totalResults: 1, resultsPerPage: 1 },
};

export const thread = (
  id: string,
  text: string,
  author = "@ada",
  authorChannel = "UCada000000000000000000",
) => ({
  kind: "youtube#commentThread",
  etag: `etag-${id}`,
  id,
  snippet: {
    channelId: CHANNEL_ID,
    videoId: VIDEO_ID,
    topLevelComment: {
      kind: "youtube#comment",
      etag: `etag-c-${id}`,
      id,
      snippet: {
        channelId: CHANNEL_ID,
        videoId: VIDEO_ID,
        textDisplay: text,
        textOriginal: text,
        authorDisplayName: author,
        authorProfileImageUrl: "https://yt3.ggpht.com/ytc/author=s48-c-k-c0x00ffffff-no-rj",
        authorChannelUrl: `http://www.youtube.com/${author}`,
        authorChannelId: { value: authorChannel },
        canRate: true,
        viewerRating: "none",
        likeCount: 0,
        publishedAt: "2025-05-02T11:00:00Z",
        updatedAt: "2025-05-02T11:00:00Z",
      },
    },
    canReply: true,
    totalReplyCount: 0,
    isPublic: true,
  },
});

export const threads = (items: unknown[], nextPageToken?: string) => ({
  kind: "youtube#commentThreadListResponse",
  etag: "V2n6uWJt2nB4K9lVYh0tmCPfa3c",
  ...(nextPageToken ? { nextPageToken } : {}),
  pageInfo: { totalResults: items.length, resultsPerPage: 100 },
  items,
});

/** An error answer in Google's documented shape. */
export const googleError = (code: number, reason: string, message: string, domain = "youtube.video") => ({
  error: { code, message, errors: [{ message, domain, reason }] },
});

export const quotaExceeded = googleError(
  403,
  "quotaExceeded",
  'The request cannot be completed because you have exceeded your <a href="/youtube/v3/getting-started#quota">quota</a>.',
  "youtube.quota",
);
