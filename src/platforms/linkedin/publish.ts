// Publishing on LinkedIn through the Posts API: the first item is the post (text, one video, one image
// or a multi-image post of up to 20), each next item a comment by the same author under it (LinkedIn has
// no reply chains of posts). The post's URN comes back in the x-restli-id header. LinkedIn keeps no
// hidden field with a post, so `find` matches the text among the author's newest posts (or, for a
// reply, among the post's comments). A comment (a thread's later item, the auto-plug reply) is written
// under the post as the account (Comments API, socialActions/{post URN}/comments).

import { progressOf } from "../progress";
import {
  type AccountAuth,
  type DraftItem,
  type FindLookup,
  PlatformError,
  type PublishDraft,
  type PublishedPost,
} from "../types";
import { authorOf, isAccessDenied, type LinkedInApi, restli, tokenOf } from "./api";
import { type MediaOptions, type MediaStep, uploadImage, uploadVideo } from "./media";
import { commentsUrl, commentUrnOf, listComments } from "./read";
import { COMMENT_MAX } from "./rules";
import { comment as commentSchema, expect, postsPage } from "./schemas";

/**
 * Comments on `postUrn` as `actor` (or, with `parent`, answers that comment: posted to the comment's
 * own collection, naming it as `parentComment`); its URN comes back in the body (or the x-restli-id
 * header).
 */
export async function createComment(
  api: LinkedInApi,
  token: string,
  actor: string,
  postUrn: string,
  text: string,
  parent?: string,
): Promise<PublishedPost> {
  const answer = await api.post("comment", commentsUrl(api, parent ?? postUrn), token, {
    actor,
    object: postUrn,
    ...(parent ? { parentComment: parent } : {}),
    message: { text },
  });
  const parsed = commentSchema.safeParse(answer.body ?? {});
  const urn = parsed.success ? commentUrnOf(postUrn, parsed.data, answer.headers.get("x-restli-id")) : null;
  if (!urn) {
    // Accepted (2xx) but unnamed: the comment exists; `find` looks it up by its text.
    throw new PlatformError("LinkedIn comment: the answer names no comment", {
      kind: "unknown_outcome",
      code: "invalid_response",
    });
  }
  return { id: urn, url: api.commentUrl(postUrn, urn) };
}

/** Posts of the author looked through by `find`. */
export const FIND_WINDOW = 50;
const VISIBILITIES = new Set(["PUBLIC", "CONNECTIONS", "LOGGED_IN"]);

const refuse = (message: string, code = "content_rejected") =>
  new PlatformError(message, { kind: "permanent", code });

/**
 * A URL in a post's text: http(s):// or www. up to the next space, without the punctuation that ends a
 * sentence after it, nor a closing bracket it did not open ("(see https://x.test/a)").
 */
const URL_IN_TEXT = /\b(?:https?:\/\/|www\.)[^\s<>]+/gi;

function urlEnd(url: string): number {
  let end = url.length;
  for (;;) {
    const last = url[end - 1];
    if (last && ".,;:!?'\"".includes(last)) {
      end--;
      continue;
    }
    const closing = { ")": "(", "]": "[", "}": "{" }[last ?? ""];
    if (closing) {
      const body = url.slice(0, end);
      if (body.split(closing).length < body.split(last!).length) {
        end--;
        continue;
      }
    }
    return end;
  }
}

const escapeLittle = (text: string) => text.replace(/[\\|{}@[\]()<>*_~]/g, (c) => `\\${c}`);

/**
 * LinkedIn "little" text (learn.microsoft.com › LinkedIn › Marketing › Community Management › Shares ›
 * Little Text Format): these characters are markup (mentions, templates) and must be escaped with a
 * backslash to show as written; unescaped, LinkedIn may drop text. `#` stays, so hashtags still link.
 * URLs are left as written: LinkedIn links a URL in the commentary as it stands, and a backslash inside
 * it would become part of the link (`https://x.test/a\_b` leads nowhere).
 */
export function littleText(text: string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index;
    const end = start + urlEnd(match[0]);
    out += escapeLittle(text.slice(from, start)) + text.slice(start, end);
    from = end;
  }
  return out + escapeLittle(text.slice(from));
}

/**
 * The post's first item. Everything LinkedIn would refuse part-way the platform's check
 * (src/platforms/linkedin/rules.ts) refused before the first call: a video beside anything, too many
 * images, a comment with media or over its length.
 */
function check(items: DraftItem[]): DraftItem {
  const [first] = items;
  if (!first) throw refuse("LinkedIn: the post has no content.");
  return first;
}

async function contentOf(api: LinkedInApi, token: string, author: string, item: DraftItem, step: MediaStep) {
  const video = item.media.findIndex((m) => m.kind === "video");
  if (video >= 0) {
    return { media: { id: await uploadVideo(api, token, author, item.media[video]!, step, video) } };
  }
  const ids: string[] = [];
  // In order, each recorded as it is created: a later attempt resumes the first one not yet AVAILABLE.
  for (const [index, image] of item.media.entries())
    ids.push(await uploadImage(api, token, author, image, step, index));
  if (ids.length === 0) return undefined;
  return ids.length === 1 ? { media: { id: ids[0] } } : { multiImage: { images: ids.map((id) => ({ id })) } };
}

/** The post a DUPLICATE_POST refusal names ("Content is a duplicate of urn:li:share:…"), if any. */
export function duplicateOf(error: unknown): string | null {
  if (!(error instanceof PlatformError) || error.code !== "duplicate_post") return null;
  return /\burn:li:(?:share|ugcPost):\d+\b/.exec(error.message)?.[0] ?? null;
}

/** Recorded on the row before the create is sent: a later attempt knows an earlier one may have posted. */
export const CREATE_SENT = "post:sent";

export async function publish(
  api: LinkedInApi,
  account: AccountAuth,
  draft: PublishDraft,
  media: MediaOptions,
): Promise<PublishedPost> {
  const first = check(draft.items);
  const token = tokenOf(account);
  const author = authorOf(account);
  const visibility = String(draft.settings.visibility ?? "PUBLIC");
  const step: MediaStep = { progress: progressOf(draft), deadline: draft.deadline, options: media };
  const content = await contentOf(api, token, author, first, step);
  // Whether an earlier attempt of this row sent the create (its answer may have been lost).
  const sentBefore = step.progress.get(CREATE_SENT) === true;
  await step.progress.set(CREATE_SENT, true);
  let answer: Awaited<ReturnType<LinkedInApi["post"]>>;
  try {
    answer = await api.post("publish", `${api.rest}/posts`, token, {
      author,
      commentary: littleText(first.text),
      visibility: VISIBILITIES.has(visibility) ? visibility : "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      ...(content ? { content } : {}),
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: draft.settings.disable_reshare === true,
    });
  } catch (error) {
    const existing = duplicateOf(error);
    if (!existing) throw error;
    // A member's posts cannot be listed (no r_member_social), so after a lost answer `find` sees nothing
    // and the retry is refused as a duplicate that names the post: that post is this row's, published.
    // Only when this row sent the create before, and only for a single post (a thread's comments may not
    // all exist); otherwise the text was published before by someone else's row, which LinkedIn refuses.
    if (sentBefore && draft.items.length === 1) return { id: existing, url: api.postUrl(existing) };
    throw new PlatformError(
      `LinkedIn refuses the same text posted again on this account (${(error as Error).message}).`,
      { kind: "permanent", code: "duplicate_post" },
    );
  }
  const urn = answer.headers.get("x-restli-id");
  if (!urn?.startsWith("urn:li:")) {
    throw new PlatformError("LinkedIn publish: the answer names no post", {
      kind: "unknown_outcome",
      code: "invalid_response",
    });
  }
  // The post exists from here: a failed comment cannot be undone by a retry, so it leaves the outcome to
  // `find`, which finds the post and records it as published (the remaining items are not posted).
  for (const item of draft.items.slice(1)) {
    try {
      await createComment(api, token, author, urn, item.text);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new PlatformError(`LinkedIn thread: the post ${urn} is published, a comment failed: ${reason}`, {
        kind: "unknown_outcome",
        code: "thread_incomplete",
      });
    }
  }
  return { id: urn, url: api.postUrl(urn) };
}

/**
 * An earlier attempt's post (or reply), by its exact text. A read LinkedIn refuses (403: a member's
 * posts and comments need r_member_social, which LinkedIn grants only to approved partners) finds
 * nothing; a second publish of the same text is then refused by LinkedIn as a duplicate.
 */
export async function find(api: LinkedInApi, account: AccountAuth, lookup: FindLookup) {
  const token = tokenOf(account);
  const author = authorOf(account);
  try {
    if (lookup.replyTo) {
      const postUrn = lookup.replyTo;
      const mine = (await listComments(api, token, postUrn)).find(
        (c) => c.actor === author && c.message.text === lookup.text,
      );
      const urn = mine ? commentUrnOf(postUrn, mine) : null;
      return urn ? { id: urn, url: api.commentUrl(postUrn, urn) } : null;
    }
    const url = `${api.rest}/posts?author=${restli(author)}&q=author&count=${FIND_WINDOW}`;
    const page = expect(
      postsPage,
      await api.get("find", url, token, { "x-restli-method": "FINDER" }),
      "find",
      "transient",
    );
    const escaped = littleText(lookup.text);
    const post = page.elements.find((p) => p.commentary === escaped || p.commentary === lookup.text);
    return post ? { id: post.id, url: api.postUrl(post.id) } : null;
  } catch (error) {
    if (isAccessDenied(error)) return null;
    throw error;
  }
}

export async function reply(api: LinkedInApi, account: AccountAuth, postUrn: string, text: string) {
  const token = tokenOf(account);
  if ([...text].length > COMMENT_MAX)
    throw refuse(`LinkedIn: a comment has at most ${COMMENT_MAX} characters.`);
  return createComment(api, token, authorOf(account), postUrn, text);
}
