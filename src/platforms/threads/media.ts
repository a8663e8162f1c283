// Threads' media containers: made (POST /{user-id}/threads; Threads pulls the media from our signed
// URLs), then polled (GET /{container-id}?fields=status) until FINISHED, boundedly, with the context's
// sleep. developers.facebook.com › Threads › Posts; Troubleshooting (container status).
import { pollUntil } from "../progress";
import type { AccountAuth, DraftMedia, PublishingContext } from "../types";
import { type ThreadsApi, userPath } from "./api";
import { containerStatus, created } from "./schemas";

/** Looks at a container this many times at most, POLL_INTERVAL_MS apart, before ending the attempt. */
export const POLL_ATTEMPTS = 20;
/** Up to a minute per attempt: images are ready in seconds, short videos in well under a minute. */
export const POLL_INTERVAL_MS = 3_000;
/** What a container still processing after the bound asks the engine to wait before the next attempt. */
export const PROCESSING_RETRY_SECONDS = 60;
/** A recorded container Threads no longer takes (EXPIRED or ERROR). */
export class DeadContainer extends Error {
  constructor(
    readonly id: string,
    readonly status: string,
    readonly detail: string | undefined,
  ) {
    super(`Threads container ${id} ${status}`);
  }
}

/** A container's media fields: an image or a video from its URL. */
export const mediaFields = (media: DraftMedia): Record<string, string> =>
  media.kind === "video"
    ? { media_type: "VIDEO", video_url: media.url }
    : { media_type: "IMAGE", image_url: media.url };

/** A container of the account: its id. */
export const createContainer = async (
  api: ThreadsApi,
  account: AccountAuth,
  fields: Record<string, string>,
) => (await api.post("container", `${userPath(account)}/threads`, fields, created)).id;

/** A container's status (and its error_message when ERROR). */
export const containerState = (api: ThreadsApi, containerId: string) =>
  api.get(
    "container status",
    encodeURIComponent(containerId),
    { fields: "status,error_message" },
    containerStatus,
  );

/**
 * Polls a container until Threads has fetched and processed its media (FINISHED), or answers that it
 * is PUBLISHED already. ERROR and EXPIRED throw a DeadContainer; still IN_PROGRESS after the bound or
 * past the attempt's deadline ends the attempt (`stillProcessing`): the next one polls the same
 * recorded container, nothing is made again.
 */
export async function whenReady(
  api: ThreadsApi,
  context: Pick<PublishingContext, "sleep" | "now">,
  containerId: string,
  deadline?: number,
): Promise<"FINISHED" | "PUBLISHED"> {
  const polling = {
    looks: POLL_ATTEMPTS,
    intervalMs: POLL_INTERVAL_MS,
    deadline,
    message: "Threads is still processing the media; the next attempt goes on with the same container.",
    retryAfterSeconds: PROCESSING_RETRY_SECONDS,
  };
  return pollUntil(context, polling, async () => {
    const answer = await containerState(api, containerId);
    if (answer.status === "FINISHED" || answer.status === "PUBLISHED") return answer.status;
    if (answer.status === "ERROR" || answer.status === "EXPIRED")
      throw new DeadContainer(containerId, answer.status, answer.error_message);
    return undefined;
  });
}
