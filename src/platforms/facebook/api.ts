// The Graph API as one Page sees it: the account's Page token (a connect stores the Page's token as the
// account's; src/platforms/facebook/channels.ts), its Page id, and appsecret_proof on every call, as
// developers.facebook.com › Graph API › Securing Requests recommends (and "Require App Secret" demands).
import { baseOf } from "../client";
import { GRAPH_VERSION, type Graph, graphClient, node, tokenOf } from "../meta";
import { type AccountAuth, PlatformError, type PublishingContext } from "../types";
import { permalink } from "./schemas";

/**
 * Facebook's hosts: the Graph API (videos too: the graph-video host "has been deprecated", developers
 * .facebook.com › Video API › Overview), resumable uploads, and the site (consent, pages).
 */
export const HOSTS = {
  graph: "https://graph.facebook.com",
  upload: "https://rupload.facebook.com",
  web: "https://www.facebook.com",
} as const;

export const GRAPH = `${HOSTS.graph}/${GRAPH_VERSION}`;
export const LABEL = "Facebook";

export type PageApi = {
  pageId: string;
  token: string;
  graph: Graph;
  /** The base URL of the upload host (rupload.facebook.com, or the context's). */
  upload: string;
  /** The base URL of the site (www.facebook.com, or the context's): where an object's address falls back to. */
  web: string;
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
    upload: baseOf(context, HOSTS, "upload"),
    web: baseOf(context, HOSTS, "web"),
    context,
  };
}

/** Facebook answers some permalinks as paths ("/page/videos/1/"): make them absolute, on the site's host. */
export const absolute = (api: Pick<PageApi, "web">, url: string) =>
  url.startsWith("/") ? `${api.web}${url}` : url;

/** The fallback address of any Facebook object: www.facebook.com resolves an id to it. */
export const objectUrl = (api: Pick<PageApi, "web">, id: string) => `${api.web}/${encodeURIComponent(id)}`;

/**
 * The object's permalink_url. Only ever asked after the object exists, so a failure (or none) falls
 * back to the id's address rather than failing a publish that succeeded.
 */
export async function permalinkOf(api: PageApi, id: string, fallback = objectUrl(api, id)): Promise<string> {
  try {
    const answer = await api.graph.get("permalink", node(id), { fields: "permalink_url" }, permalink);
    return answer.permalink_url ? absolute(api, answer.permalink_url) : fallback;
  } catch (error) {
    if (error instanceof PlatformError) return fallback;
    throw error;
  }
}

/** A reel's address on the site. */
export const reelUrl = (api: Pick<PageApi, "web">, id: string) => `${api.web}/reel/${encodeURIComponent(id)}`;
