// Instagram publishes in two steps: a media container is made from a public URL (Instagram fetches the
// file itself), processed, then published. This module makes containers, records each one on the row
// as soon as it exists (types.ts `Progress`), polls them (boundedly, with the context's sleep) until
// they are FINISHED, and checks the account's publishing quota first. developers.facebook.com ›
// Instagram Platform › Content Publishing; IG Container (status_code: EXPIRED "not published within 24
// hours", ERROR, FINISHED, IN_PROGRESS, PUBLISHED); IG User Content Publishing Limit.
import { type GraphParams, node, PUBLISHING_LIMIT_SECONDS } from "../meta";
import { pollUntil } from "../progress";
import { PlatformError, type Progress } from "../types";
import type { IgApi } from "./api";
import { containerStatus, created, publishingLimit } from "./schemas";

/** Looks at a container this many times at most, POLL_INTERVAL_MS apart, before ending the attempt. */
export const POLL_ATTEMPTS = 12;
export const POLL_INTERVAL_MS = 5_000;
/** What a container still processing after the bound asks the engine to wait before the next attempt. */
export const PROCESSING_RETRY_SECONDS = 60;

/**
 * What an attempt records under PROGRESS_KEY: the containers made so far for the post (a carousel's
 * children in order, then the container that is published), when the first was made, how many times a
 * failed container set was replaced, and the media id once media_publish answered.
 */
export type IgProgress = {
  children?: string[];
  container?: string;
  at?: number;
  replaced?: number;
  media?: string;
};
export const PROGRESS_KEY = "instagram";

export const recorded = (progress: Progress | undefined): IgProgress => {
  const value = progress?.get(PROGRESS_KEY);
  return typeof value === "object" && value !== null ? (value as IgProgress) : {};
};

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

export type ContainerState = { status_code: string; status?: string };

/** A container's status_code (and its status text, the error subcode of an ERROR). */
export async function containerState(api: IgApi, containerId: string): Promise<ContainerState> {
  const query = { fields: "status_code,status" };
  const answer = await api.graph.get("media container", node(containerId), query, containerStatus);
  return { status_code: answer.status_code ?? "IN_PROGRESS", status: answer.status };
}

/** Instagram refused the media of a container (ERROR): permanent, with its status text. */
export const mediaRejected = (state: ContainerState) =>
  new PlatformError(
    `Instagram could not process the media${state.status ? `: ${state.status.slice(0, 300)}` : "."}`,
    { kind: "permanent", code: "media_rejected" },
  );

/** A recorded container Instagram no longer takes (EXPIRED or ERROR): the set is made again. */
export class DeadContainer extends Error {
  constructor(
    readonly id: string,
    readonly state: ContainerState,
  ) {
    super(`Instagram container ${id} ${state.status_code}`);
  }
}

/**
 * Polls the container until it is FINISHED (or PUBLISHED: answered, so the caller never publishes it again), `POLL_ATTEMPTS` looks `POLL_INTERVAL_MS`
 * apart with the context's sleep. EXPIRED or ERROR throws a DeadContainer (the caller replaces the
 * recorded containers, or refuses the media for good). Still IN_PROGRESS at the bound or past the
 * attempt's deadline: `stillProcessing`, and the next attempt polls the same recorded container; nothing
 * is created again.
 */
export async function whenFinished(
  api: IgApi,
  containerId: string,
  deadline?: number,
): Promise<"FINISHED" | "PUBLISHED"> {
  const polling = {
    looks: POLL_ATTEMPTS,
    intervalMs: POLL_INTERVAL_MS,
    deadline,
    message: "Instagram is still processing the media; the next attempt goes on with the same container.",
    retryAfterSeconds: PROCESSING_RETRY_SECONDS,
  };
  return pollUntil(api, polling, async () => {
    const state = await containerState(api, containerId);
    switch (state.status_code) {
      case "FINISHED":
      case "PUBLISHED":
        return state.status_code;
      case "ERROR":
      case "EXPIRED":
        throw new DeadContainer(containerId, state);
    }
    return undefined;
  });
}
