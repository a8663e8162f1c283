// The channels a connect may publish as (Google's consent already asks which channel or brand account, so
// this is usually one, and the service skips its picker then).
// developers.google.com › YouTube Data API › Channels: list.
import type { Channel, PlatformToken } from "../types";
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
