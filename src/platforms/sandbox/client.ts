// How adapters reach the sandbox: an in-process fetch that hands requests straight to the sandbox router
// (never the network), the sandbox's endpoints on the service's own origin, and its posting calls.
import type { Platform } from "../../db/enums";
import type { Posting } from "../adapter";
import { callPlatform } from "../adapter";
import { type Endpoints, type Fetch, PlatformError, type PostMetrics, type PublishedPost } from "../types";
import { sandboxInProcess } from "./index";

/** A fetch that only reaches `${origin}/sandbox/…`, answered in-process by the sandbox router. */
export function sandboxFetch(env: Env, origin: string): Fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== origin || !url.pathname.startsWith("/sandbox/")) {
      throw new TypeError(
        `the sandbox fetch only reaches ${origin}/sandbox/, not ${url.origin}${url.pathname}`,
      );
    }
    return sandboxInProcess.fetch(request, env);
  };
}

export const sandboxEndpoints = (origin: string, platform: Platform): Endpoints => ({
  authorize: `${origin}/sandbox/${platform}/oauth/authorize`,
  token: `${origin}/sandbox/${platform}/oauth/token`,
  identity: `${origin}/sandbox/${platform}/me`,
});

function isPublished(value: unknown): value is PublishedPost {
  const post = value as PublishedPost | null;
  return typeof post?.id === "string" && typeof post.url === "string";
}

export function sandboxPosting(fetcher: Fetch, origin: string, platform: Platform): Posting {
  const base = `${origin}/sandbox/${platform}/posts`;
  const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: "application/json" });
  return {
    async publish(accessToken, post) {
      const body = await callPlatform(fetcher, `sandbox ${platform} publish`, base, {
        method: "POST",
        headers: { ...auth(accessToken), "content-type": "application/json" },
        body: JSON.stringify(post),
      });
      if (!isPublished(body)) throw new PlatformError(`sandbox ${platform} publish: unexpected answer`);
      return { id: body.id, url: body.url };
    },
    async insights(accessToken, postId) {
      const url = `${base}/${encodeURIComponent(postId)}/insights`;
      return (await callPlatform(fetcher, `sandbox ${platform} insights`, url, {
        method: "GET",
        headers: auth(accessToken),
      })) as PostMetrics;
    },
  };
}
