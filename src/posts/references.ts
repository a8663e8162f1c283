// The accounts, labels and media a post request names: read in the same batch as the request's other
// checks, then each id that is not of the post's workspace (or is a failed media item) becomes a 422
// naming it. The rows carry what the dry run (validate.ts) checks besides: an account's handle and
// expiry, a media item's type and size.
import { and, eq, inArray, isNull, type SQLWrapper, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { MediaState, Platform } from "../db/enums";
import { accounts, labels, media } from "../db/schema";
import type { PostInput } from "./schemas";

/** `column IN (ids)`; matches nothing when the request names no ids. */
const idsOrNothing = (column: Parameters<typeof inArray>[0], ids: number[]) =>
  ids.length ? inArray(column, ids) : sql`0`;

/** Reads the accounts, labels and media a request names, scoped to one workspace (an id or a subquery). */
/** An account a post targets, as the references resolve it. */
export type TargetAccount = { id: number; platform: Platform };

export function referenceStatements(db: Database, workspaceId: number | SQLWrapper, input: PostInput) {
  const mediaIds = [...new Set((input.content ?? []).flatMap((item) => item.media))];
  return [
    db
      .select({
        id: accounts.id,
        platform: accounts.platform,
        username: accounts.username,
        expiredAt: accounts.expiredAt,
      })
      .from(accounts)
      .where(
        and(
          eq(accounts.workspaceId, workspaceId),
          idsOrNothing(accounts.id, input.accounts ?? []),
          // A disconnected account cannot be targeted: refused as an unknown one.
          isNull(accounts.disconnectedAt),
        ),
      ),
    db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.workspaceId, workspaceId), idsOrNothing(labels.id, input.labels ?? []))),
    db
      .select({ id: media.id, state: media.state, mime: media.mimeType, kind: media.type, size: media.size })
      .from(media)
      .where(and(eq(media.workspaceId, workspaceId), idsOrNothing(media.id, mediaIds))),
  ] as const;
}

export type References = {
  accounts: TargetAccount[];
  labelIds: Set<number>;
  media: Map<number, MediaState>;
};

export function toReferences(
  accountRows: TargetAccount[],
  labelRows: Array<{ id: number }>,
  mediaRows: Array<{ id: number; state: MediaState }>,
  input: PostInput,
): References {
  const byId = new Map(accountRows.map((a) => [a.id, a]));
  return {
    // In the order the client gave them: that is the order of the platform rows.
    accounts: (input.accounts ?? []).flatMap((id) => byId.get(id) ?? []),
    labelIds: new Set(labelRows.map((l) => l.id)),
    media: new Map(mediaRows.map((m) => [m.id, m.state])),
  };
}

/** 422 naming each account, label or media id that is not of the post's workspace. */
export function referenceErrors(input: PostInput, refs: References): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const accountIds = new Set(refs.accounts.map((a) => a.id));
  input.accounts?.forEach((id, i) => {
    if (!accountIds.has(id)) errors[`accounts.${i}`] = [`The selected accounts.${i} is invalid.`];
  });
  input.labels?.forEach((id, i) => {
    if (!refs.labelIds.has(id)) errors[`labels.${i}`] = [`The selected labels.${i} is invalid.`];
  });
  input.content?.forEach((item, i) => {
    item.media.forEach((id, j) => {
      const state = refs.media.get(id);
      if (!state || state === "failed")
        errors[`content.${i}.media.${j}`] = [`The selected content.${i}.media.${j} is invalid.`];
    });
  });
  return errors;
}
