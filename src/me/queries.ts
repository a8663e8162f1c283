// The key's user, subscription and key row, in one batch.
import { eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { apiKeys, subscriptions, users } from "../db/schema";

export async function whoAmI(db: Database, userId: number, keyId: number) {
  const [[user], [subscription], [key]] = await db.batch([
    db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.id, userId)),
    db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.userId, userId)),
    db
      .select({ name: apiKeys.name, prefix: apiKeys.keyPrefix, createdAt: apiKeys.createdAt })
      .from(apiKeys)
      .where(eq(apiKeys.id, keyId)),
  ]);
  return { user, subscription: subscription?.status ?? "none", key };
}
