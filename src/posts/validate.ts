// The dry run of a post create (POST /api/v1/posts/validate): create's own checks on create's own reads
// (save.ts checkCreate: one D1 batch), then, for each target account, what would keep the post from
// publishing there: an expired account, a platform this service has no app for, and whatever the
// platform's own `check` refuses (its text limit, items and media, settings: src/platforms/<platform>/
// rules.ts, asked through the registry). Nothing is written and nothing is queued.
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import type { Tenant } from "../db/tenancy";
import { isoOrNull } from "../lib/time";
import { checkPost } from "../platforms/catalog";
import type { CheckedItem } from "../platforms/rules";
import { settingsFor } from "../platforms/settings";
import { type CreateReads, checkCreate, checkedItems } from "./save";
import type { CreatePostInput, PostProblem, PostValidation } from "./schemas";

export type ValidateContext = {
  /** Whether the service can publish to the platform (its OAuth app is configured, or the sandbox). */
  configured: (platform: Platform) => boolean;
};

/** A target account as the batch read it. */
export type CheckedAccount = { platform: Platform; expiredAt: Date | null };

const toProblems = (errors: Record<string, string[]>): PostProblem[] =>
  Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));

/** Everything that would keep the post from publishing on the account at `accounts.<index>`. */
export function accountProblems(
  index: number,
  account: CheckedAccount,
  items: CheckedItem[],
  input: Pick<CreatePostInput, "settings">,
  ctx: ValidateContext,
): PostProblem[] {
  const { platform } = account;
  const field = `accounts.${index}`;
  const problems: PostProblem[] = [];
  if (account.expiredAt)
    problems.push({ field, message: `The selected ${field} has expired: reconnect it to publish with it.` });
  if (!ctx.configured(platform))
    problems.push({
      field,
      message: `The selected ${field} cannot publish: ${platform} is not configured on this service.`,
    });
  // The platform's own check, on the settings its row would get (the request's, else every default);
  // the cap on the whole post (`content`) is create's.
  const settings = settingsFor(platform, input.settings?.[platform] as Record<string, unknown> | undefined);
  return [...problems, ...checkPost(platform, { items, settings })];
}

/**
 * The dry run: create's 422 errors, and for each target account whether it would publish and why not.
 * `reads`: create's read batch done already (a bulk import shares one among many posts).
 */
export async function validatePost(
  db: Database,
  tenant: Tenant,
  input: CreatePostInput,
  ctx: ValidateContext,
  reads?: CreateReads,
): Promise<PostValidation> {
  const { errors, accountRows, mediaRows, state, zone } = await checkCreate(
    db,
    tenant,
    input,
    new Date(),
    reads,
  );
  const found = new Map(accountRows.map((a) => [a.id, a]));
  const items = checkedItems(input.content, mediaRows);
  const creatable = Object.keys(errors).length === 0;
  const accounts = input.accounts.map((id, index) => {
    const account = found.get(id);
    const problems = account
      ? accountProblems(index, account, items, input, ctx)
      : toProblems({ [`accounts.${index}`]: errors[`accounts.${index}`] ?? [] });
    return {
      account_id: id,
      platform: account?.platform ?? null,
      username: account?.username ?? null,
      will_publish: creatable && problems.length === 0,
      problems,
    };
  });
  // A queued post's time is the slot free now; the create claims the first still free when it runs.
  const scheduledAt = creatable && !input.publish_now ? isoOrNull(state.scheduledAt, zone) : null;
  return { valid: accounts.every((a) => a.will_publish), accounts, errors, scheduled_at: scheduledAt };
}
