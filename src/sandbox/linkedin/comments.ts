// Managing comments on the LinkedIn emulator (learn.microsoft.com › LinkedIn › Community Management ›
// Comments API): the permission a comment written or deleted as an actor needs (w_member_social as the
// member, w_organization_social as an organization: 403 without), and DELETE
// /rest/socialActions/{post or parent comment URN}/comments/{id}?actor=… (204; 404 for a comment not
// there; 403 unless the actor wrote it). A deleted comment (and the answers under it) leaves every list.
// LinkedIn has no API to hide a comment, so the emulator has none.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { type Caller, type Emulated, refuse } from "../emulator";
import { authorAs } from "./channels";
import { commentsOf, DELETED, postOf } from "./read";
import { grantedScopes } from "./token";

type Ctx = Context<BareEnv>;

/** The permission writing as `actor` needs, refused (403) when the app was not granted it. */
export function checkWriteScope(env: unknown, actor: string) {
  const scope = actor.startsWith("urn:li:organization:") ? "w_organization_social" : "w_member_social";
  if (!grantedScopes(env).has(scope)) {
    return refuse(403, "forbidden", `Not enough permissions to access: ${scope} is required for ${actor}`);
  }
}

/**
 * DELETE /rest/socialActions/{urn}/comments/{id}?actor=…: the comment `id` in the collection of `urn`
 * (the post's, or a parent comment's), deleted as `actor`, which must be the caller or its organization
 * and the comment's author.
 */
export async function deleteComment(c: Ctx, e: Emulated) {
  const caller: Caller = await e.caller();
  const target = c.req.param("urn") ?? "";
  const id = c.req.param("id") ?? "";
  const actorUrn = c.req.query("actor");
  if (!actorUrn) {
    return refuse(400, "invalid_request", "/actor :: the query parameter actor is required", {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  const actor = await authorAs(caller, actorUrn, "actor");
  checkWriteScope(c.env, actor.urn);
  const parent = /^urn:li:comment:\((.+),([^,()]+)\)$/.exec(target);
  const post = await postOf(e, parent ? parent[1]! : target);
  const urn = `urn:li:comment:(${post.id},${id})`;
  const found = (await commentsOf(e, post)).find(
    (comment) =>
      comment.commentUrn === urn && (parent ? comment.parentComment === target : !comment.parentComment),
  );
  if (!found) return refuse(404, "not_found", `Comment ${urn} does not exist`);
  if (found.actor !== actor.urn) {
    return refuse(403, "forbidden", `Not enough permissions to delete ${urn} as ${actor.urn}`);
  }
  await e.createObject({ handle: post.handle, kind: DELETED, data: { post: post.id, urn }, upload: false });
  return c.body(null, 204);
}
