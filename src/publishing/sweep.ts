// SKELETON (issue 9): the cron's safety-net sweep of publishing. Today it only claims due posts.
import { createDb } from "../db/client";
import { claimDuePosts } from "./claim";

export async function sweepPublishing(env: Env, now: Date): Promise<void> {
  await claimDuePosts(createDb(env.DB), env.PUBLISH_QUEUE, now);
}
