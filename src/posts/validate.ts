// The dry run of a post create (POST /api/v1/posts/validate): create's own checks on create's own reads
// (save.ts checkCreate: one D1 batch), then, for each target account, what would keep the post from
// publishing there: an expired account, a platform this service has no app for, text over the
// platform's limit, the items and media the platform refuses (media-rules.ts), and settings it cannot
// publish without. Nothing is written and nothing is queued.
import type { Database } from "../db/client";
import type { Platform } from "../db/enums";
import { PLATFORM_SETTINGS, type PlatformSettings } from "../platforms/settings";
import { textErrors } from "./limits";
import { type CheckedItem, mediaProblems, type PostType } from "./media-rules";
import { checkCreate } from "./save";
import type { CreatePostInput, PostProblem, PostValidation } from "./schemas";

export type ValidateContext = {
  /** Whether the service can publish to the platform (its OAuth app is configured, or the sandbox). */
  configured: (platform: Platform) => boolean;
};

/** A target account as the batch read it. */
export type CheckedAccount = { platform: Platform; expiredAt: Date | null };

const toProblems = (errors: Record<string, string[]>): PostProblem[] =>
  Object.entries(errors).flatMap(([field, messages]) => messages.map((message) => ({ field, message })));

/** The settings a row of `platform` would get: the request's, else every default. */
const settingsOf = <P extends Platform>(input: Pick<CreatePostInput, "settings">, platform: P) =>
  (input.settings?.[platform] ?? PLATFORM_SETTINGS[platform].parse({})) as PlatformSettings[P];

/** YouTube refuses `<` and `>` in a video's title and description. */
const ANGLE_BRACKETS = /[<>]/;

/** What a platform refuses in the row's settings, or in text only its settings concern. */
export function settingsProblems(
  platform: Platform,
  items: CheckedItem[],
  input: Pick<CreatePostInput, "settings">,
): PostProblem[] {
  const problems: PostProblem[] = [];
  const add = (field: string, rule: string) =>
    problems.push({ field, message: `The ${field} field ${rule} on ${platform}.` });
  const firstHasMedia = (items[0]?.media.length ?? 0) > 0;
  if (platform === "pinterest" && !settingsOf(input, "pinterest").board_id)
    add("settings.pinterest.board_id", "is required");
  if (platform === "twitter" && settingsOf(input, "twitter").poll.enabled && firstHasMedia)
    add("settings.twitter.poll", "is prohibited when the first content item has media");
  if (platform === "facebook" && settingsOf(input, "facebook").link && firstHasMedia)
    add("settings.facebook.link", "is prohibited when the first content item has media");
  if (platform === "youtube") {
    if (ANGLE_BRACKETS.test(items[0]?.text ?? "")) add("content.0.text", "must not contain < or >");
    if (ANGLE_BRACKETS.test(settingsOf(input, "youtube").title ?? ""))
      add("settings.youtube.title", "must not contain < or >");
  }
  return problems;
}

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
  // Create's text limits for this platform alone; the cap on the whole post (`content`) is create's.
  const { content: _wholePost, ...texts } = textErrors(
    items.map((item) => item.text),
    [platform],
  );
  const postType: PostType =
    platform === "instagram" || platform === "facebook" ? settingsOf(input, platform).post_type : "post";
  return [
    ...problems,
    ...toProblems(texts),
    ...mediaProblems(platform, items, postType),
    ...settingsProblems(platform, items, input),
  ];
}

/** The dry run: create's 422 errors, and for each target account whether it would publish and why not. */
export async function validatePost(
  db: Database,
  userId: number,
  input: CreatePostInput,
  ctx: ValidateContext,
): Promise<PostValidation> {
  const { errors, accountRows, mediaRows } = await checkCreate(db, userId, input, new Date());
  const found = new Map(accountRows.map((a) => [a.id, a]));
  const library = new Map(mediaRows.map((m) => [m.id, m]));
  const items: CheckedItem[] = input.content.map((item) => ({
    text: item.text,
    media: item.media.map((id) => {
      const m = library.get(id);
      return m && m.state !== "failed" ? { mime: m.mime, kind: m.kind, size: m.size } : null;
    }),
  }));
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
  return { valid: accounts.every((a) => a.will_publish), accounts, errors };
}
