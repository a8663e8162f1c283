// The account side of YouTube: the channels a connect may publish as (Google's consent already asks
// which channel or brand account, so this is usually one, and the service skips its picker then), and
// the revocation of the grant on disconnect (Google revokes the refresh token with the access token).
// developers.google.com › YouTube Data API › Channels: list; Using OAuth 2.0 for Web Server
// Applications › Revoking a token.
import { callPlatform } from "../call";
import { type AccountAuth, type Channel, PlatformError, type PlatformToken } from "../types";
import type { YouTubeApi } from "./api";
import { channelList, thumbnailUrl } from "./schemas";

export async function listChannels(api: YouTubeApi, token: PlatformToken): Promise<Channel[]> {
  const answer = await api.get(
    "channels",
    "channels",
    { part: "snippet", mine: "true", maxResults: "50" },
    token.accessToken,
    channelList,
  );
  return answer.items.map((channel) => {
    const title = channel.snippet?.title ?? channel.id;
    return {
      id: channel.id,
      handle: channel.snippet?.customUrl?.replace(/^@/, "") ?? title,
      name: title,
      avatar: thumbnailUrl(channel.snippet?.thumbnails),
      kind: "Channel",
    };
  });
}

export async function revokeGrant(api: YouTubeApi, account: AccountAuth): Promise<void> {
  // Revoking the refresh token ends the whole grant, also when the access token has already expired.
  const token = account.refreshToken ?? account.accessToken;
  if (!token) return;
  const what = "YouTube token revocation";
  try {
    await callPlatform(
      api.context.fetch,
      what,
      api.url("oauth", "/revoke"),
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ token }),
      },
      // Google's messages here can echo the request; only the status is kept.
      { quoteErrors: false },
    );
  } catch (error) {
    // `invalid_token`: the token is already expired or revoked, which is what was asked for.
    if (error instanceof PlatformError && error.code === "invalid_token") return;
    throw error;
  }
}
