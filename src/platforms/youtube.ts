// YouTube: Google OAuth 2.0 for web server apps with PKCE (S256), scope youtube.readonly; identity is the
// user's channel (channels.list mine=true): the channel id and its @handle (customUrl), else its title.
// developers.google.com › Using OAuth 2.0 for Web Server Applications; YouTube Data API › Channels: list.
import { accessToken, bearerGet, child, text } from "./adapter";
import type { PlatformSpec } from "./types";

const SCOPES = ["https://www.googleapis.com/auth/youtube.readonly"];

export const youtube: PlatformSpec = {
  platform: "youtube",
  label: "YouTube",
  endpoints: {
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    identity: "https://www.googleapis.com/youtube/v3/channels",
  },
  scopes: SCOPES,
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  tokenAuth: "body",
  // No refresh token: delegation throws the tokens away.
  authorizeExtras: { access_type: "online" },
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet("?part=snippet&mine=true"),
  parseIdentity(body) {
    const items = child(body, "items");
    const channel = Array.isArray(items) ? items[0] : undefined;
    const id = text(channel, "id");
    if (!id) return null;
    const snippet = child(channel, "snippet");
    const handle = text(snippet, "customUrl")?.replace(/^@/, "") ?? text(snippet, "title") ?? "";
    return { platform_id: id, handle };
  },
};
