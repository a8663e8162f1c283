// The sandbox's channels, for the platforms whose login is not where posts go: a Facebook user manages
// two Pages (`<handle>-page`, `<handle>-shop`, each with a Page token of its own), a LinkedIn member
// publishes as themselves or as their organisation (`<handle>-org`), a Google account owns one YouTube
// channel (so the service skips its picker). Channels are sandbox accounts like any other: their handle
// is what their posts are listed under.
import type { Platform } from "../db/enums";
import type { Channel } from "../platforms/types";
import { mintToken } from "./mint";
import { sandboxPlatformId } from "./shapes";

/** A Page token lives this long (Meta's Page tokens from a long-lived user token do not expire). */
export const PAGE_TOKEN_TTL_MS = 60 * 24 * 3_600_000;

type Shape = { suffix: string | null; kind: string; name: (handle: string) => string; ownToken: boolean };

const CHANNELS: Partial<Record<Platform, Shape[]>> = {
  facebook: [
    { suffix: "-page", kind: "Page", name: (h) => `${h}'s Page`, ownToken: true },
    { suffix: "-shop", kind: "Page", name: (h) => `${h}'s Shop`, ownToken: true },
  ],
  linkedin: [
    { suffix: null, kind: "Profile", name: (h) => h, ownToken: false },
    { suffix: "-org", kind: "Organization", name: (h) => `${h} Inc.`, ownToken: false },
  ],
  youtube: [{ suffix: null, kind: "Channel", name: (h) => h, ownToken: false }],
};

export const hasSandboxChannels = (platform: Platform) => CHANNELS[platform] !== undefined;

/** The channels the user `handle` can publish as on `platform`, in the answer shape of the sandbox. */
export async function sandboxChannels(
  env: Pick<Env, "ENCRYPTION_KEY">,
  platform: Platform,
  handle: string,
  /** The user token's scopes, which a Page's own token carries too; absent: every scope. */
  scopes?: readonly string[],
  /** The user's space (src/platforms/sandbox/owner.ts): its channels live there too. */
  space: string | null = null,
): Promise<Channel[]> {
  return Promise.all(
    (CHANNELS[platform] ?? []).map(async (shape) => {
      const channelHandle = shape.suffix ? `${handle}${shape.suffix}` : handle;
      const channel: Channel = {
        id: await sandboxPlatformId(platform, channelHandle, space),
        handle: channelHandle,
        name: shape.name(handle),
        avatar: null,
        kind: shape.kind,
      };
      if (shape.ownToken)
        channel.accessToken = await mintToken(
          env,
          platform,
          channelHandle,
          PAGE_TOKEN_TTL_MS,
          undefined,
          undefined,
          scopes,
          space,
        );
      return channel;
    }),
  );
}
