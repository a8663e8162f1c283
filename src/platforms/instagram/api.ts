// The Instagram API with Instagram Login as one professional account sees it: graph.instagram.com with
// the account's Instagram user token as a Bearer header, the account's Instagram user id (`user_id` of
// /me, stored as the account's platform user id) as the node publishing and reading goes through.
import { baseOf } from "../client";
import { GRAPH_VERSION, type Graph, graphClient, node, tokenOf } from "../meta";
import { type AccountAuth, PlatformError, type PublishingContext } from "../types";
import { permalink } from "./schemas";

/** Instagram's hosts: the Graph API, the token API, and the site (consent, profiles). */
export const HOSTS = {
  graph: "https://graph.instagram.com",
  api: "https://api.instagram.com",
  web: "https://www.instagram.com",
} as const;

export const GRAPH_IG = `${HOSTS.graph}/${GRAPH_VERSION}`;
export const LABEL = "Instagram";

/**
 * The account's node and Graph client, with the context's clock and sleep (between two looks at a
 * processing container; tests pass one that moves a fake clock).
 */
export type IgApi = {
  userId: string;
  handle: string;
  graph: Graph;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
};

export function igApi(context: PublishingContext, account: AccountAuth): IgApi {
  const token = tokenOf(LABEL, account.accessToken);
  if (!account.platformUserId) {
    throw new PlatformError("Instagram: the account has no Instagram user id; reconnect it.", {
      kind: "permanent",
      code: "account_incomplete",
    });
  }
  return {
    userId: account.platformUserId,
    handle: account.handle,
    graph: graphClient({
      fetch: context.fetch,
      label: LABEL,
      base: `${baseOf(context, HOSTS, "graph")}/${GRAPH_VERSION}`,
      token,
    }),
    sleep: context.sleep,
    now: context.now,
  };
}

/** The account's profile: the address a post falls back to when its permalink cannot be read. */
export const profileUrl = (username: string) => `https://www.instagram.com/${encodeURIComponent(username)}/`;

/**
 * The media's permalink. Only asked once the media exists, so a failure falls back to the profile's
 * address rather than failing a publish that succeeded (Instagram addresses need the media's
 * shortcode, which only this answer gives).
 */
export async function permalinkOf(api: IgApi, mediaId: string): Promise<string> {
  try {
    const answer = await api.graph.get("permalink", node(mediaId), { fields: "permalink" }, permalink);
    return answer.permalink ?? profileUrl(api.handle);
  } catch (error) {
    if (error instanceof PlatformError) return profileUrl(api.handle);
    throw error;
  }
}
