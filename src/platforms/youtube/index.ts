// YouTube Data API v3, facts and wiring: OAuth, identity and revocation (token.ts), the channels a
// connect picks from (channels.ts), publishing and the auto-plug comment (publish.ts, media.ts: the
// resumable upload), reads (read.ts: statistics and comments), managing comments (comments.ts).
// developers.google.com › YouTube Data API.

import { definePlatform } from "../define";
import type { Publishing, PublishingContext } from "../types";
import { HOSTS, LABEL, youtubeApi } from "./api";
import { listChannels } from "./channels";
import { commentRules, deleteComment, hideComment, replyToComment } from "./comments";
import { findPublished, postComment, publishVideo, type Sleep } from "./publish";
import { videoComments, videoInsights } from "./read";
import { check, MEDIA, TEXT_LIMIT } from "./rules";
import { settings, settingsShape } from "./settings";
import { CONNECT_SCOPES, identityRequest, parseIdentity, parseToken, revokeGrant, SCOPES } from "./token";

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
    replyToComment: (account, comment, text) => replyToComment(api, account, comment, text),
    hideComment: (account, comment, hidden) => hideComment(api, account, comment, hidden),
    deleteComment: (account, comment) => deleteComment(api, account, comment),
    revoke: (account) => revokeGrant(api, account),
    channels: (token) => listChannels(api, token),
  };
}

export const youtube = definePlatform({
  platform: "youtube",
  label: LABEL,
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
  parseToken,
  identityRequest,
  parseIdentity,
  hosts: HOSTS,
  settings,
  settingsShape,
  textLimit: TEXT_LIMIT,
  media: MEDIA,
  check,
  commentRules,
});
