// Comments through socialActions/{post URN}/comments: writing one as the account (thread items after
// the first, the auto-plug reply), reading a post's newest comments, and mapping them onto
// PlatformComment. LinkedIn names a comment's author only by URN (names need profile permissions the
// Community Management API does not grant), so authors are shown as "LinkedIn member" or
// "LinkedIn organization", with the URN as the contact's username.

import { type PlatformComment, PlatformError, type PublishedPost } from "../types";
import type { LinkedInApi } from "./api";
import { restli } from "./api";
import { comment as commentSchema, commentsPage, expect, type LinkedInComment } from "./schemas";

/** LinkedIn's longest comment, in characters. */
export { COMMENT_MAX } from "./rules";

/** Comments read per page, and at most in all (the newest). */
const PAGE = 50;
export const COMMENTS_MAX = 100;

const commentsUrl = (api: LinkedInApi, postUrn: string) =>
  `${api.rest}/socialActions/${restli(postUrn)}/comments`;

/** The comment's URN: LinkedIn's `commentUrn`, else one built from the post and the comment id. */
export function commentUrnOf(postUrn: string, found: LinkedInComment, header?: string | null) {
  if (found.commentUrn) return found.commentUrn;
  if (found.$URN) return found.$URN;
  if (header?.startsWith("urn:li:comment:")) return header;
  const id = found.id ?? header;
  return id ? `urn:li:comment:(${postUrn},${id})` : null;
}

/** Comments on `postUrn` as `actor`; its URN comes back in the body (or the x-restli-id header). */
export async function createComment(
  api: LinkedInApi,
  token: string,
  actor: string,
  postUrn: string,
  text: string,
): Promise<PublishedPost> {
  const answer = await api.post("comment", commentsUrl(api, postUrn), token, {
    actor,
    object: postUrn,
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

/** The post's newest comments, a page at a time, up to COMMENTS_MAX. */
export async function listComments(api: LinkedInApi, token: string, postUrn: string) {
  const found: LinkedInComment[] = [];
  for (let start = 0; found.length < COMMENTS_MAX; start += PAGE) {
    const url = `${commentsUrl(api, postUrn)}?start=${start}&count=${PAGE}`;
    const page = expect(commentsPage, await api.get("comments", url, token), "comments", "transient");
    found.push(...page.elements);
    const total = page.paging?.total;
    if (page.elements.length < PAGE || (total !== undefined && start + PAGE >= total)) break;
  }
  return found.slice(0, COMMENTS_MAX);
}

const profileUrl = (actor: string) => {
  const organization = /^urn:li:organization:(\d+)$/.exec(actor)?.[1];
  return organization ? `https://www.linkedin.com/company/${organization}/` : null;
};

export function toPlatformComment(postUrn: string, found: LinkedInComment): PlatformComment | null {
  const id = commentUrnOf(postUrn, found);
  if (!id) return null;
  const name = found.actor.startsWith("urn:li:organization:") ? "LinkedIn organization" : "LinkedIn member";
  return {
    id,
    content: found.message.text,
    author_name: name,
    created_at: new Date(found.created?.time ?? 0),
    contact: found.actor ? { name, username: found.actor, profile_url: profileUrl(found.actor) } : null,
  };
}
