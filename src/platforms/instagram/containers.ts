// Instagram publishes in two steps: a media container is made from a public URL (Instagram fetches the
// file itself), processed, then published. This module makes containers, waits (boundedly) until they
// are FINISHED, and checks the account's publishing quota first. developers.facebook.com › Instagram
// Platform › Content Publishing; IG Container; IG User Content Publishing Limit.
import { type GraphParams, node, PUBLISHING_LIMIT_SECONDS } from "../meta";
import { PlatformError } from "../types";
import type { IgApi } from "./api";
import { containerStatus, created, publishingLimit } from "./schemas";

/** Looks at a container this many times at most, POLL_INTERVAL_MS apart, before giving up for now. */
export const POLL_ATTEMPTS = 12;
export const POLL_INTERVAL_MS = 5_000;
/** What a container still processing after the bound asks the engine to wait before trying again. */
const PROCESSING_RETRY_SECONDS = 60;

/**
 * Refuses before any container is made when the account has used its quota of API-published posts
 * (a moving 24 hours; carousels count once): a `rate_limited` error, retried after an hour.
 */
export async function checkPublishingQuota(api: IgApi): Promise<void> {
  const query = { fields: "quota_usage,config" };
  const answer = await api.graph.get(
    "publishing limit",
    node(api.userId, "content_publishing_limit"),
    query,
    publishingLimit,
  );
  const [limit] = answer.data;
  const total = limit?.config?.quota_total;
  if (limit?.quota_usage === undefined || total === undefined || limit.quota_usage < total) return;
  throw new PlatformError(
    `Instagram: the account has published its ${total} posts allowed through the API in 24 hours.`,
    { kind: "rate_limited", code: "publishing_limit", retryAfterSeconds: PUBLISHING_LIMIT_SECONDS },
  );
}

export async function createContainer(api: IgApi, params: GraphParams): Promise<string> {
  return (await api.graph.post("media container", node(api.userId, "media"), params, created)).id;
}

/**
 * Waits until the container is FINISHED. ERROR is Instagram refusing the media (permanent, with its
 * status text); EXPIRED is transient; still IN_PROGRESS after the bound is retried after a minute (as a
 * `rate_limited` error, the kind that carries a delay). Nothing was published either way, and the next
 * attempt makes a new container.
 */
export async function whenFinished(api: IgApi, containerId: string): Promise<void> {
  for (let look = 1; look <= POLL_ATTEMPTS; look++) {
    const query = { fields: "status_code,status" };
    const answer = await api.graph.get("media container", node(containerId), query, containerStatus);
    switch (answer.status_code) {
      case "FINISHED":
      case "PUBLISHED":
        return;
      case "ERROR":
        throw new PlatformError(
          `Instagram could not process the media${answer.status ? `: ${answer.status.slice(0, 300)}` : "."}`,
          { kind: "permanent", code: "media_rejected" },
        );
      case "EXPIRED":
        throw new PlatformError("Instagram: the media container expired before it was published.", {
          kind: "transient",
          code: "container_expired",
        });
    }
    if (look < POLL_ATTEMPTS) await api.wait(POLL_INTERVAL_MS);
  }
  throw new PlatformError("Instagram is still processing the media; it will be tried again.", {
    kind: "rate_limited",
    code: "processing",
    retryAfterSeconds: PROCESSING_RETRY_SECONDS,
  });
}
