// Review links (ARCHITECTURE "Approvals"): `/review/{post}?v=<version>&exp=<unix s>&l=<label>&sig=<hex>`,
// an HMAC-SHA256 (key derived from ENCRYPTION_KEY for this use only) of the post id, the version it was
// made for, its expiry and its label, so none can be changed. The link is the reviewer's credential: it
// decides that one version of that one post, until it expires. One decision per link: the decision is
// the post's own conditional write (waiting at that version), which succeeds once; after it, or after any
// change of the post (a new version), the link decides nothing.
import { derivedHmacKey, hmacSha256Hex, verifyHmacHex } from "../lib/crypto";

const PURPOSE = "review-link-v1";
/** The review form's CSRF token: an HMAC of the link's signature under a key of its own. */
const CSRF_PURPOSE = "review-link-csrf-v1";

export type ReviewLink = { postId: number; version: number; expires: number; label: string | null };

/** What is signed: the fields as JSON, so no value can be re-split into another. */
const message = (link: ReviewLink) => JSON.stringify([link.postId, link.version, link.expires, link.label]);

type KeyEnv = Pick<Env, "ENCRYPTION_KEY">;

export async function signReviewLink(env: KeyEnv, origin: string, link: ReviewLink): Promise<string> {
  const sig = await hmacSha256Hex(await derivedHmacKey(env.ENCRYPTION_KEY, PURPOSE), message(link));
  const query = new URLSearchParams({ v: String(link.version), exp: String(link.expires) });
  if (link.label !== null) query.set("l", link.label);
  query.set("sig", sig);
  return `${origin}/review/${link.postId}?${query}`;
}

const DIGITS = /^[1-9][0-9]{0,15}$/;

export type LinkCheck =
  | { kind: "ok"; link: ReviewLink; sig: string }
  | { kind: "expired" }
  | { kind: "invalid" };

/** The link a review page's path and query name, if its signature holds and it has not expired. */
export async function verifyReviewLink(
  env: KeyEnv,
  id: string,
  query: Record<string, string | undefined>,
  now = Date.now(),
): Promise<LinkCheck> {
  const { v, exp, l, sig } = query;
  if (!DIGITS.test(id) || !v || !DIGITS.test(v) || !exp || !DIGITS.test(exp) || !sig)
    return { kind: "invalid" };
  const link: ReviewLink = { postId: Number(id), version: Number(v), expires: Number(exp), label: l ?? null };
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, PURPOSE);
  if (!(await verifyHmacHex(key, message(link), sig))) return { kind: "invalid" };
  if (link.expires * 1000 <= now) return { kind: "expired" };
  return { kind: "ok", link, sig };
}

/** The token the review form carries, bound to its link. */
export async function reviewCsrf(env: KeyEnv, sig: string): Promise<string> {
  return hmacSha256Hex(await derivedHmacKey(env.ENCRYPTION_KEY, CSRF_PURPOSE), sig);
}

export async function reviewCsrfMatches(env: KeyEnv, sig: string, given: string): Promise<boolean> {
  return verifyHmacHex(await derivedHmacKey(env.ENCRYPTION_KEY, CSRF_PURPOSE), sig, given);
}
