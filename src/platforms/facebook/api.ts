// The Graph API as one Page sees it: the account's Page token (a connect stores the Page's token as the
// account's; src/platforms/facebook/channels.ts), its Page id, and appsecret_proof on every call, as
// developers.facebook.com › Graph API › Securing Requests recommends (and "Require App Secret" demands).
import { baseOf } from "../client";
import { GRAPH_VERSION, type Graph, graphClient, node, tokenOf } from "../meta";
import { type AccountAuth, PlatformError, type PublishingContext } from "../types";
import { permalink } from "./schemas";

/** Facebook's hosts: the Graph API, its video host, resumable uploads, and the site (consent, pages). */
export const HOSTS = {
  graph: "https://graph.facebook.com",
  video: "https://graph-video.facebook.com",
  upload: "https://rupload.facebook.com",
  web: "https://www.facebook.com",
} as const;

export const GRAPH = `${HOSTS.graph}/${GRAPH_VERSION}`;
/** Video uploads go to the video host (developers.facebook.com › Video API › Publishing). */
export const GRAPH_VIDEO = `${HOSTS.video}/${GRAPH_VERSION}`;
export const LABEL = "Facebook";

export type PageApi = {
  pageId: string;
  token: string;
  graph: Graph;
  video: Graph;
  context: PublishingContext;
};

export function pageApi(context: PublishingContext, account: AccountAuth): PageApi {
  const token = tokenOf(LABEL, account.accessToken);
  if (!account.platformUserId) {
    throw new PlatformError("Facebook: the account names no Page; reconnect it and pick a Page.", {
      kind: "permanent",
      code: "page_missing",
    });
  }
  const options = { fetch: context.fetch, label: LABEL, token, appSecret: context.credentials.clientSecret };
  return {
    pageId: account.platformUserId,
    token,
    graph: graphClient({ ...options, base: `${baseOf(context, HOSTS, "graph")}/${GRAPH_VERSION}` }),
    video: graphClient({ ...options, base: `${baseOf(context, HOSTS, "video")}/${GRAPH_VERSION}` }),
    context,
  };
}

/** Facebook answers some permalinks as paths ("/page/videos/1/"): make them absolute. */
export const absolute = (url: string) => (url.startsWith("/") ? `https://www.facebook.com${url}` : url);

/** The fallback address of any Facebook object: www.facebook.com resolves an id to it. */
export const objectUrl = (id: string) => `https://www.facebook.com/${encodeURIComponent(id)}`;

/**
 * The object's permalink_url. Only ever asked after the object exists, so a failure (or none) falls
 * back to the id's address rather than failing a publish that succeeded.
 */
export async function permalinkOf(api: PageApi, id: string): Promise<string> {
  try {
    const answer = await api.graph.get("permalink", node(id), { fields: "permalink_url" }, permalink);
    return answer.permalink_url ? absolute(answer.permalink_url) : objectUrl(id);
  } catch (error) {
    if (error instanceof PlatformError) return objectUrl(id);
    throw error;
  }
}
