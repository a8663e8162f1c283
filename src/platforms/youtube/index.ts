// YouTube: Google OAuth 2.0 for web server apps with PKCE (S256). A delegation asks for youtube.readonly
// and no refresh token; a connect asks for upload, read and comment scopes with offline access (a
// refresh token; prompt=consent so Google sends one again on a reconnect). Identity is the user's
// channel (channels.list mine=true): the channel id and its @handle (customUrl), else its title, and
// its thumbnail. Publishing (publish.ts, engage.ts, account.ts) uses the YouTube Data API v3.
// developers.google.com › Using OAuth 2.0 for Web Server Applications; YouTube Data API › Channels: list.

import { accessToken, bearerGet, child, text } from "../adapter";
import { definePlatform } from "../define";
import type { Identity, Publishing, PublishingContext } from "../types";
import { listChannels, revokeGrant } from "./account";
import { HOSTS, youtubeApi } from "./api";
import { postComment, videoComments, videoInsights } from "./engage";
import { findPublished, publishVideo, type Sleep } from "./publish";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";

const SCOPES = ["https://www.googleapis.com/auth/youtube.readonly"];
const CONNECT_SCOPES = [
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.readonly",
  // Comments (commentThreads.insert) need it.
  "https://www.googleapis.com/auth/youtube.force-ssl",
];

/** `sleep` waits before `find` looks a second time (by default the context's sleep). */
export function youtubePublishing(context: PublishingContext, options: { sleep?: Sleep } = {}): Publishing {
  const api = youtubeApi(context);
  const sleep = options.sleep ?? ((ms: number) => context.sleep(ms));
  return {
    publish: (account, draft) => publishVideo(api, account, draft),
    find: (account, lookup) => findPublished(api, account, lookup, sleep),
    insights: (account, videoId) => videoInsights(api, account, videoId),
    comments: (account, videoId) => videoComments(api, account, videoId),
    // The fingerprint cannot travel with a comment: `find` matches the reply's text.
    reply: (account, videoId, replyText) => postComment(api, account, videoId, replyText),
    revoke: (account) => revokeGrant(api, account),
    channels: (token) => listChannels(api, token),
  };
}

export const youtube = definePlatform({
  platform: "youtube",
  label: "YouTube",
  // Google's refresh tokens die after six months unused (seven days for an app in Testing, which no
  // keep-alive saves): refreshed monthly.
  keepAlive: { every: 30 * 86_400 },
  endpoints: {
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    identity: "https://www.googleapis.com/youtube/v3/channels",
  },
  scopes: SCOPES,
  connect: {
    scopes: CONNECT_SCOPES,
    authorizeExtras: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
  },
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  tokenAuth: "body",
  // No refresh token: delegation throws the tokens away.
  authorizeExtras: { access_type: "online" },
  denialErrors: ["access_denied"],
  publishing: (context) => youtubePublishing(context),
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet("?part=snippet&mine=true"),
  parseIdentity(body) {
    const items = child(body, "items");
    const channel = Array.isArray(items) ? items[0] : undefined;
    const id = text(channel, "id");
    if (!id) return null;
    const snippet = child(channel, "snippet");
    const handle = text(snippet, "customUrl")?.replace(/^@/, "") ?? text(snippet, "title") ?? "";
    const identity: Identity = { platform_id: id, handle };
    const thumbnails = child(snippet, "thumbnails");
    const avatar =
      text(child(thumbnails, "medium"), "url") ??
      text(child(thumbnails, "default"), "url") ??
      text(child(thumbnails, "high"), "url");
    if (avatar) identity.avatar = avatar;
    return identity;
  },
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
});
