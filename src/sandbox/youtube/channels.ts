// YouTube's channels on the emulator (channels.list): the caller's channel (identity, the chooser, the
// uploads playlist), by mine, id or handle, in the parts asked for.
// developers.google.com › YouTube Data API › Channels: list.
import { type Emulated, refuse } from "../emulator";
import { json } from "./errors";
import { etag, listAnswer, partsOf, type Req, uploadsOf } from "./rules";

/** channels.list: the caller's channel (mine=true), or channels by id or handle. */
export async function listChannels(emulated: Emulated, req: Req): Promise<Response> {
  const caller = await emulated.caller();
  const parts = partsOf(req, [
    "id",
    "snippet",
    "contentDetails",
    "statistics",
    "status",
    "brandingSettings",
    "topicDetails",
    "localizations",
    "contentOwnerDetails",
  ]);
  const mine = req.query("mine");
  const ids = req.query("id");
  if (mine === undefined && ids === undefined && req.query("forHandle") === undefined)
    return refuse(
      400,
      "invalid_request",
      "No filter selected. Expected one of: mine, id, forHandle, forUsername, managedByMe, categoryId",
      {
        code: "missingRequiredParameter",
      },
    );
  const own = await emulated.channels(caller.handle);
  const channels =
    mine === "true"
      ? own
      : ids !== undefined
        ? own.filter((channel) => ids.split(",").includes(channel.id))
        : own.filter((channel) => `@${channel.handle}` === req.query("forHandle"));
  const items = await Promise.all(
    channels.map(async (channel) => {
      const videos = (await emulated.posts(channel.handle)).length;
      const item: Record<string, unknown> = { kind: "youtube#channel", etag: etag(), id: channel.id };
      if (parts.has("snippet"))
        item.snippet = {
          title: channel.name,
          description: "",
          customUrl: `@${channel.handle}`,
          publishedAt: "2020-01-01T00:00:00Z",
          thumbnails: {
            default: { url: `${emulated.base}/channels/${channel.id}.jpg`, width: 88, height: 88 },
          },
          localized: { title: channel.name, description: "" },
        };
      if (parts.has("contentDetails"))
        item.contentDetails = { relatedPlaylists: { likes: "", uploads: uploadsOf(channel.id) } };
      if (parts.has("statistics"))
        item.statistics = {
          viewCount: "0",
          subscriberCount: "0",
          hiddenSubscriberCount: false,
          videoCount: String(videos),
        };
      if (parts.has("status"))
        item.status = {
          privacyStatus: "public",
          isLinked: true,
          longUploadsStatus: "allowed",
          madeForKids: false,
        };
      return item;
    }),
  );
  return json(listAnswer("youtube#channelListResponse", items, 5, items.length));
}
