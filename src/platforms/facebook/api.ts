// The Graph API as one Page sees it: the account's Page token (a connect stores the Page's token as the
// account's; src/platforms/facebook/channels.ts), its Page id, and appsecret_proof on every call, as
// developers.facebook.com › Graph API › Securing Requests recommends (and "Require App Secret" demands).
import type { z } from "zod";
import { platformCall } from "../call";
import { baseOf } from "../client";
import {
  appSecretProof,
  GRAPH_VERSION,
  type GraphParams,
  graphForm,
  metaCall,
  metaDeleteCall,
  node,
  shaped,
  tokenOf,
} from "../meta";
import { type AccountAuth, PlatformError, type PublishingContext } from "../types";
import { permalink, photoLink } from "./schemas";

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

/**
 * Which of the context's timeouts a call takes: `upload` for a call during which Facebook fetches a
 * media file (a `file_url` video, the hosted-file upload), `call` for the others.
 */
export type CallKind = "call" | "upload";

/** The Graph API as the Page calls it: the token as a Bearer header, its appsecret_proof in the query. */
export type PageGraph = {
  get<T>(what: string, path: string, query: Record<string, string>, schema: z.ZodType<T>): Promise<T>;
  post<T>(what: string, path: string, params: GraphParams, schema: z.ZodType<T>, kind?: CallKind): Promise<T>;
  /** DELETE of a node; an object already gone rejects with code `not_found`. */
  delete(what: string, path: string): Promise<void>;
};

export type PageApi = {
  pageId: string;
  token: string;
  graph: PageGraph;
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
  return {
    pageId: account.platformUserId,
    token,
    graph: pageGraph(context, token),
    upload: baseOf(context, HOSTS, "upload"),
    web: baseOf(context, HOSTS, "web"),
    context,
  };
}

function pageGraph(context: PublishingContext, token: string): PageGraph {
  const base = `${baseOf(context, HOSTS, "graph")}/${GRAPH_VERSION}`;
  const proof = appSecretProof(context.credentials.clientSecret, token);
  const url = async (path: string, query: Record<string, string> = {}) => {
    const search = new URLSearchParams({ ...query, appsecret_proof: await proof });
    return `${base}/${path}?${search}`;
  };
  const headers = { authorization: `Bearer ${token}`, accept: "application/json" };
  const options = (name: string, kind: CallKind) => ({
    ...metaCall(name),
    timeoutMs: context.timeouts[kind],
  });
  return {
    async get(what, path, query, schema) {
      const name = `${LABEL} ${what}`;
      const init = { method: "GET", headers };
      const answer = await platformCall(
        context.fetch,
        name,
        await url(path, query),
        init,
        options(name, "call"),
      );
      return shaped(schema, answer.body, name, "GET");
    },
    async post(what, path, params, schema, kind = "call") {
      const name = `${LABEL} ${what}`;
      const init = {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
        body: graphForm(params),
      };
      const answer = await platformCall(context.fetch, name, await url(path), init, options(name, kind));
      return shaped(schema, answer.body, name, "POST");
    },
    async delete(what, path) {
      const name = `${LABEL} ${what}`;
      const init = { method: "DELETE", headers };
      await platformCall(context.fetch, name, await url(path), init, {
        ...metaDeleteCall(name),
        timeoutMs: context.timeouts.call,
      });
    },
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

/**
 * A photo's own address: its `link` (Graph API › Photo: "A link to the photo on Facebook"), else the
 * photo viewer's address for its id. A single-photo post is shown (and linked) as its photo.
 */
export async function photoUrl(api: PageApi, photoId: string): Promise<string> {
  const fallback = `${api.web}/photo/?fbid=${encodeURIComponent(photoId)}`;
  try {
    const answer = await api.graph.get("photo link", node(photoId), { fields: "link" }, photoLink);
    return answer.link ? absolute(api, answer.link) : fallback;
  } catch (error) {
    if (error instanceof PlatformError) return fallback;
    throw error;
  }
}
