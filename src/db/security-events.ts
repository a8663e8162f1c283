// The security log's writes: one statement per key or secret change, put into the batch that makes the
// change, so the log and the change commit together (or neither does). Each reads what it names (the
// key's user, name and prefix; the endpoint's URL) in the same statement, and writes nothing when the
// key or endpoint is not there (the change itself then touched nothing either).
import { type SQL, sql } from "drizzle-orm";
import { insertWhere } from "./batch";
import type { Database } from "./client";
import {
  apiKeys,
  type SECURITY_ACTORS,
  type SECURITY_EVENT_KINDS,
  securityEvents,
  webhookEndpoints,
} from "./schema";

export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** Who made a change: a console session (which one, from which browser), the operator API, or the API. */
export type Actor =
  | { kind: "console"; sessionId: number; userAgent: string | null }
  | { kind: Exclude<(typeof SECURITY_ACTORS)[number], "console"> };

export const OPERATOR: Actor = { kind: "operator" };
export const API: Actor = { kind: "api" };

const actorColumns = (actor: Actor) => ({
  actor: actor.kind,
  sessionId: actor.kind === "console" ? actor.sessionId : null,
  userAgent: actor.kind === "console" ? (actor.userAgent?.slice(0, 255) ?? null) : null,
});

/** An event of the key `keyId` (an id, or SQL naming one inserted earlier in the batch). */
export function keyEvent(db: Database, kind: SecurityEventKind, keyId: number | SQL<number>, actor: Actor) {
  const key = sql`FROM ${apiKeys} WHERE ${apiKeys.id} = ${keyId}`;
  return insertWhere(
    db,
    securityEvents,
    {
      userId: sql`(SELECT ${apiKeys.userId} ${key})`,
      kind,
      subject: sql`(SELECT ${apiKeys.id} ${key})`,
      label: sql`(SELECT ${apiKeys.name} || ' (' || ${apiKeys.keyPrefix} || '…)' ${key})`,
      ...actorColumns(actor),
    },
    sql`EXISTS (SELECT 1 ${key})`,
  );
}

/** An event of the endpoint `which` selects (the user's, by the caller's tenancy condition). */
export function endpointEvent(
  db: Database,
  kind: SecurityEventKind,
  userId: number,
  which: SQL | undefined,
  actor: Actor,
) {
  const endpoint = sql`FROM ${webhookEndpoints} WHERE ${which}`;
  return insertWhere(
    db,
    securityEvents,
    {
      userId,
      kind,
      subject: sql`(SELECT ${webhookEndpoints.id} ${endpoint})`,
      label: sql`(SELECT ${webhookEndpoints.url} ${endpoint})`,
      ...actorColumns(actor),
    },
    sql`EXISTS (SELECT 1 ${endpoint})`,
  );
}
