// A workspace's members: listed, found by address, removed. Adding one is the operator API's addMember
// (src/admin/queries.ts), which the console calls too. Every member of a workspace lives in its shard
// (src/db/shards.ts), so all of this reads and writes one database.
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { users, workspaceMembers } from "../db/schema";
import { inUserWorkspaces, ownedWorkspace, type Tenant } from "../db/tenancy";

/** The members of every workspace the user is a member of, oldest membership first; batchable. */
export const membersOfUserWorkspaces = (db: Database, tenant: Tenant) =>
  db
    .select({
      workspaceId: workspaceMembers.workspaceId,
      userId: users.id,
      name: users.name,
      email: users.email,
    })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(inUserWorkspaces(db, workspaceMembers.workspaceId, tenant))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.id));

/**
 * The user with this address in this shard only: a member must share the workspace's shard, and a user
 * of another shard is told apart from no user by nothing (the same answer for both).
 */
export const userInShardByEmail = (db: Database, email: string) =>
  db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).get();

export type Removal = "removed" | "not_found" | "last_member";

/**
 * Removes `memberId` from the user's workspace (the user may remove themselves: leaving). The last
 * member stays: a workspace without members would be no one's, its accounts and posts out of reach.
 */
export async function removeMember(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  memberId: number,
): Promise<Removal> {
  const membership = and(
    eq(workspaceMembers.workspaceId, ownedWorkspace(tenant, workspaceId)),
    eq(workspaceMembers.userId, memberId),
  );
  const others = sql`(SELECT COUNT(*) FROM ${workspaceMembers} WHERE ${sql.identifier(workspaceMembers.workspaceId.name)} = ${workspaceId}) > 1`;
  const [found, removed] = await db.batch([
    db.select({ userId: workspaceMembers.userId }).from(workspaceMembers).where(membership),
    db.delete(workspaceMembers).where(and(membership, others)).returning({ userId: workspaceMembers.userId }),
  ]);
  if (removed.length > 0) return "removed";
  return found.length > 0 ? "last_member" : "not_found";
}
