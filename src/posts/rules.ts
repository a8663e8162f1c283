// The cross-field rules of a post, checked on the state the post will have after the request.
import type { PostStatus } from "../db/enums";
import type { Post } from "../db/schema";
import type { PostInput } from "./schemas";

export type PostState = {
  scheduledAt: Date | null;
  publishNow: boolean;
  repeatable: boolean;
  repeatableTimes: number | null;
  repeatableGap: number | null;
  repeatableGapUnit: Post["repeatableGapUnit"];
};

/**
 * Merges the request into the stored state (absent fields keep their value). A stored schedule that has
 * already passed is kept only while the post is still SCHEDULED (the cron is about to claim it) or
 * waiting for approval (approving it publishes it at once): editing a FAILED or DRAFT post never re-arms
 * an old date behind the client's back.
 */
export function nextState(
  current: (PostState & { status: PostStatus }) | null,
  input: PostInput,
  now: Date,
): PostState {
  const publishNow = input.publish_now ?? false;
  const staleSchedule =
    current?.scheduledAt &&
    current.scheduledAt.getTime() <= now.getTime() &&
    current.status !== "SCHEDULED" &&
    current.status !== "PENDING_APPROVAL";
  if (current && staleSchedule && input.scheduled_at === undefined)
    current = { ...current, scheduledAt: null };
  const repeatable = input.repeatable ?? current?.repeatable ?? false;
  const keep = <K extends keyof PostState>(key: K, given: PostState[K] | undefined) =>
    given !== undefined ? given : (current?.[key] ?? null);
  return {
    scheduledAt: publishNow ? now : (keep("scheduledAt", input.scheduled_at) as Date | null),
    publishNow,
    repeatable,
    repeatableTimes: repeatable ? (keep("repeatableTimes", input.repeatable_times) as number | null) : null,
    repeatableGap: repeatable ? (keep("repeatableGap", input.repeatable_gap) as number | null) : null,
    repeatableGapUnit: repeatable
      ? (keep("repeatableGapUnit", input.repeatable_gap_unit) as PostState["repeatableGapUnit"])
      : null,
  };
}

/**
 * Whether an update changes what a reviewer approves (content, targets, time or settings, the follow-up
 * reply included): then the post's `version` grows, and an approved post waits for approval again.
 * `queue: true` counts as a change of time. Labels alone do not.
 */
export function changesVersion(stored: PostState, input: PostInput, state: PostState): boolean {
  if (
    input.content !== undefined ||
    input.accounts !== undefined ||
    input.settings !== undefined ||
    input.auto_plug !== undefined ||
    input.queue
  )
    return true;
  return (
    stored.scheduledAt?.getTime() !== state.scheduledAt?.getTime() ||
    stored.publishNow !== state.publishNow ||
    stored.repeatable !== state.repeatable ||
    stored.repeatableTimes !== state.repeatableTimes ||
    stored.repeatableGap !== state.repeatableGap ||
    stored.repeatableGapUnit !== state.repeatableGapUnit
  );
}

export function statusOf(state: PostState): PostStatus {
  if (state.publishNow) return "PUBLISHING";
  return state.scheduledAt ? "SCHEDULED" : "DRAFT";
}

/** Field errors of the merged state; empty when the post is valid. */
export function ruleErrors(input: PostInput, state: PostState, now: Date): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  if (input.publish_now && input.scheduled_at)
    add("publish_now", "The publish now field is prohibited when scheduled at is present.");
  if (input.queue && input.publish_now)
    add("queue", "The queue field is prohibited when publish now is present.");
  if (input.queue && input.scheduled_at !== undefined)
    add("queue", "The queue field is prohibited when scheduled at is present.");
  if (input.scheduled_at && input.scheduled_at.getTime() <= now.getTime())
    add("scheduled_at", "The scheduled at field must be a date after now.");
  if (state.repeatable) {
    if (state.repeatableTimes === null)
      add("repeatable_times", "The repeatable times field is required when repeatable is true.");
    if (state.repeatableGap === null)
      add("repeatable_gap", "The repeatable gap field is required when repeatable is true.");
    if (state.repeatableGapUnit === null)
      add("repeatable_gap_unit", "The repeatable gap unit field is required when repeatable is true.");
  } else {
    for (const field of ["repeatable_times", "repeatable_gap", "repeatable_gap_unit"] as const) {
      if (input[field] !== undefined && input[field] !== null)
        add(field, `The ${field.replaceAll("_", " ")} field is prohibited unless repeatable is true.`);
    }
  }
  return errors;
}
