// The operator API's writes of users, workspaces, memberships, accounts and subscriptions, with the
// checks each needs. Lookups that only decide an error share one batch with the others they go with.
import { eq, like, sql } from "drizzle-orm";
import { insertedId, insertWhere, runBatch } from "../db/batch";
import type { Database } from "../db/client";
import type { SubscriptionStatus } from "../db/enums";
import { accounts, subscriptions, users, workspaceMembers, workspaces } from "../db/schema";
import { newUserShard, type ShardDatabases, shardOfId, shardSequenceStatements } from "../db/shards";
import { invalidField, notFound } from "../http/errors";
import type { NewAccount, NewUser, NewWorkspace } from "./schemas";

const userColumns = { id: users.id, name: users.name, email: users.email };

/** The user's id if it exists; usable inside a batch. */
export const userById = (db: Database, userId: number) =>
  db.select({ id: users.id }).from(users).where(eq(users.id, userId));

const workspaceById = (db: Database, workspaceId: number) =>
  db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId));

/** A `user_id` in a body that names no user. */
export const unknownUser = () => invalidField("user_id", "The selected user id is invalid.");

export async function requireUser(db: Database, userId: number) {
  if (!(await userById(db, userId).get())) throw unknownUser();
}

/**
 * Creates the user in `shard` (default NEW_USER_SHARD). An email is unique across shards: the other
 * shards are asked first, and the target shard's unique index settles a race within it. (Two operators
 * creating one email in two shards at the same instant could both succeed; docs/scaling.md.)
 */
export async function createUser(
  shards: ShardDatabases,
  env: Env,
  { shard: chosen, subscription, ...user }: NewUser,
) {
  const shard = chosen ?? newUserShard(env);
  if (shard >= shards.count) throw invalidField("shard", "The selected shard is not bound.");
  const elsewhere = await usersByEmail(shards, user.email, shard);
  if (elsewhere.length > 0) throw emailTaken();
  const db = shards.at(shard);
  // No row of a shard exists before its id range is set (src/db/shards.ts); nothing to do for shard 0.
  await runBatch(db, shardSequenceStatements(db, shard));
  // The user and their subscription (`active` unless the operator said otherwise) in one batch: a user
  // without one would have every analytics sync skipped.
  const [[created]] = await db.batch([
    db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning(userColumns),
    insertWhere(
      db,
      subscriptions,
      {
        userId: sql`(SELECT ${users.id} FROM ${users} WHERE ${users.email} = ${user.email})`,
        status: subscription,
      },
      // Only when the statement before inserted the user: an email taken meanwhile changes nobody's.
      sql`changes() = 1`,
    ).onConflictDoNothing({ target: subscriptions.userId }),
  ]);
  if (!created) throw emailTaken();
  return { ...created, subscription };
}

const emailTaken = () => invalidField("email", "The email has already been taken.");

/** The users with this email in every shard (but `except`), concurrently. */
export async function usersByEmail(shards: ShardDatabases, email: string, except?: number) {
  const found = await Promise.all(
    (except === undefined ? shards.all() : shards.others(except)).map((db) =>
      db.select(userColumns).from(users).where(eq(users.email, email)),
    ),
  );
  return found.flat();
}

export const slugify = (name: string) =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80) || "workspace";

/** `base`, or `base-2`, `base-3`, … : the first one not taken. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

const slugTaken = () => invalidField("slug", "The slug has already been taken.");

/** D1 reports a lost race on the unique slug only through the constraint's error. */
const isSlugConflict = (error: unknown) =>
  String(error).includes("UNIQUE constraint failed: workspaces.slug");

const SLUG_ATTEMPTS = 5;

/**
 * Creates the workspace with the user as its member: two round trips (the checks, the writes). Two
 * requests can pick the same free slug at once; the unique index lets one win, the batch of the other
 * rolls back whole (no membership is written), and a derived slug is simply picked again.
 */
export async function createWorkspace(shards: ShardDatabases, { user_id, slug, ...fields }: NewWorkspace) {
  const base = slug ?? slugify(fields.name);
  // The workspace lives in its user's shard; a slug is unique across shards (the others are asked
  // alongside; a race between two shards is settled by no index: docs/scaling.md).
  const shard = shardOfId(user_id);
  const db = shards.of(user_id);
  // An explicit slug must be free; a derived one takes the first free suffix (slugs are [a-z0-9-],
  // so LIKE has no wildcard to escape).
  const slugsIn = (d: Database) =>
    d
      .select({ slug: workspaces.slug })
      .from(workspaces)
      .where(slug ? eq(workspaces.slug, slug) : like(workspaces.slug, `${base}%`));
  for (let attempt = 1; ; attempt++) {
    const [[user, here], ...elsewhere] = await Promise.all([
      db.batch([userById(db, user_id), slugsIn(db)]),
      ...shards.others(shard).map(slugsIn),
    ]);
    if (user.length === 0) throw unknownUser();
    const taken = [...here, ...elsewhere.flat()];
    if (slug && taken.length > 0) throw slugTaken();
    // After a few lost races, a random suffix ends the contest.
    const free = freeSlug(base, new Set(taken.map((row) => row.slug)));
    const chosen = slug ?? (attempt < SLUG_ATTEMPTS ? free : `${base}-${crypto.randomUUID().slice(0, 8)}`);
    try {
      const [[workspace]] = await db.batch([
        db
          .insert(workspaces)
          .values({ ...fields, slug: chosen })
          .returning(),
        // Same transaction: the membership points at the row the first statement inserted.
        db.insert(workspaceMembers).values({ workspaceId: insertedId(workspaces), userId: user_id }),
      ]);
      return workspace!;
    } catch (error) {
      if (!isSlugConflict(error)) throw error;
      if (slug) throw slugTaken();
      if (attempt > SLUG_ATTEMPTS) throw error;
    }
  }
}

/** Adds the user to the workspace; adding a member again changes nothing. */
export async function addMember(shards: ShardDatabases, workspaceId: number, userId: number) {
  const db = shards.of(workspaceId);
  const [workspace, user] = await db.batch([workspaceById(db, workspaceId), userById(db, userId)]);
  if (workspace.length === 0) throw notFound("Workspace");
  if (user.length === 0) {
    // A workspace's members share its shard: every query of a request stays in one database.
    const elsewhere = shardOfId(userId) !== shardOfId(workspaceId);
    if (elsewhere && (await userById(shards.of(userId), userId).get()))
      throw invalidField(
        "user_id",
        "The user is in another shard than the workspace; a workspace's members share its shard.",
      );
    throw unknownUser();
  }
  await db.insert(workspaceMembers).values({ workspaceId, userId }).onConflictDoNothing();
}

export async function createAccount(db: Database, account: NewAccount) {
  if (!(await workspaceById(db, account.workspace_id).get()))
    throw invalidField("workspace_id", "The selected workspace id is invalid.");
  return db
    .insert(accounts)
    .values({
      workspaceId: account.workspace_id,
      platform: account.platform,
      username: account.username,
      name: account.name,
      avatar: account.avatar,
      isVerified: account.is_verified,
    })
    .returning()
    .get();
}

export async function setSubscription(db: Database, userId: number, status: SubscriptionStatus) {
  if (!(await userById(db, userId).get())) throw notFound("User");
  await db
    .insert(subscriptions)
    .values({ userId, status })
    .onConflictDoUpdate({ target: subscriptions.userId, set: { status, updatedAt: new Date() } });
}
