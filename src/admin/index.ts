// Operator API: stands in for the account web app (users, workspaces, accounts, keys, subscriptions).
import { eq, like } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { presentAccount } from "../accounts/present";
import { generateApiKey, generateSigningSecret } from "../admin/keys";
import {
  addMemberBody,
  createAccountBody,
  createApiKeyBody,
  createUserBody,
  createWorkspaceBody,
  subscriptionBody,
} from "../admin/schemas";
import { insertedId } from "../db/batch";
import type { Database } from "../db/client";
import { accounts, apiKeys, subscriptions, users, workspaceMembers, workspaces } from "../db/schema";
import { bearerToken } from "../http/auth";
import type { DbEnv } from "../http/env";
import { invalidField, notFound, routeNotFound, unauthenticated } from "../http/errors";
import { idPath, validate } from "../http/legacy";
import { createRouter } from "../http/router";
import { encryptSecret, timingSafeEqualText } from "../lib/crypto";
import { presentWorkspace } from "../workspaces/present";

/** Absent ADMIN_TOKEN: the operator API does not exist (404). Wrong token: 401. */
const adminOnly = createMiddleware<DbEnv>(async (c, next) => {
  const expected = c.env.ADMIN_TOKEN;
  if (!expected) throw routeNotFound();
  const given = bearerToken(c.req.header("authorization"));
  if (!given || !timingSafeEqualText(given, expected)) throw unauthenticated();
  await next();
});

async function requireUser(db: Database, userId: number) {
  const user = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw invalidField("user_id", "The selected user id is invalid.");
}

const slugify = (name: string) =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80) || "workspace";

async function uniqueSlug(db: Database, base: string): Promise<string> {
  const taken = new Set(
    (
      await db
        .select({ slug: workspaces.slug })
        .from(workspaces)
        .where(like(workspaces.slug, `${base}%`))
    ).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

export const adminRouter = createRouter<DbEnv>()
  .use(adminOnly)
  .post("/users", validate("json", createUserBody), async (c) => {
    const { db } = c.var;
    const body = c.req.valid("json");
    const existing = await db.select({ id: users.id }).from(users).where(eq(users.email, body.email)).get();
    if (existing) throw invalidField("email", "The email has already been taken.");
    const user = await db.insert(users).values(body).returning().get();
    return c.json({ id: user.id, name: user.name, email: user.email }, 201);
  })
  .get("/users", validate("query", z.object({ email: z.email() })), async (c) => {
    const { db } = c.var;
    const email = c.req.valid("query").email.toLowerCase();
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.email, email));
    return c.json({ data: rows });
  })
  .post("/workspaces", validate("json", createWorkspaceBody), async (c) => {
    const { db } = c.var;
    const { user_id, slug, ...fields } = c.req.valid("json");
    await requireUser(db, user_id);
    if (
      slug &&
      (await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug)).get())
    ) {
      throw invalidField("slug", "The slug has already been taken.");
    }
    const finalSlug = slug ?? (await uniqueSlug(db, slugify(fields.name)));
    const [[workspace]] = await db.batch([
      db
        .insert(workspaces)
        .values({ ...fields, slug: finalSlug })
        .returning(),
      // Same transaction: the membership points at the row the first statement inserted.
      db.insert(workspaceMembers).values({ workspaceId: insertedId(workspaces), userId: user_id }),
    ]);
    return c.json(presentWorkspace(workspace!), 201);
  })
  .post("/workspaces/:id/members", idPath(), validate("json", addMemberBody), async (c) => {
    const { db } = c.var;
    const { id } = c.req.valid("param");
    const { user_id } = c.req.valid("json");
    const workspace = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, id))
      .get();
    if (!workspace) throw notFound("Workspace");
    await requireUser(db, user_id);
    await db.insert(workspaceMembers).values({ workspaceId: id, userId: user_id }).onConflictDoNothing();
    return c.json({ workspace_id: id, user_id }, 201);
  })
  .post("/accounts", validate("json", createAccountBody), async (c) => {
    const { db } = c.var;
    const body = c.req.valid("json");
    const workspace = await db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, body.workspace_id))
      .get();
    if (!workspace) throw invalidField("workspace_id", "The selected workspace id is invalid.");
    const account = await db
      .insert(accounts)
      .values({
        workspaceId: body.workspace_id,
        platform: body.platform,
        username: body.username,
        name: body.name,
        avatar: body.avatar,
        isVerified: body.is_verified,
      })
      .returning()
      .get();
    return c.json(presentAccount(account), 201);
  })
  .post("/api-keys", validate("json", createApiKeyBody), async (c) => {
    const { db } = c.var;
    const body = c.req.valid("json");
    await requireUser(db, body.user_id);
    const { key, hash, prefix } = await generateApiKey();
    const row = await db
      .insert(apiKeys)
      .values({
        userId: body.user_id,
        name: body.name,
        keyHash: hash,
        keyPrefix: prefix,
        abilities: [...new Set(body.abilities)],
        expiresAt: body.expires_at,
      })
      .returning({ id: apiKeys.id })
      .get();
    return c.json({ id: row.id, key }, 201);
  })
  .post("/api-keys/:id/signing-secret", idPath(), async (c) => {
    const { db } = c.var;
    const { id } = c.req.valid("param");
    const secret = generateSigningSecret();
    const updated = await db
      .update(apiKeys)
      .set({ signingSecretEnc: await encryptSecret(c.env.ENCRYPTION_KEY, secret) })
      .where(eq(apiKeys.id, id))
      .returning({ id: apiKeys.id })
      .get();
    if (!updated) throw notFound("API key");
    return c.json({ signing_secret: secret }, 201);
  })
  .put("/users/:id/subscription", idPath(), validate("json", subscriptionBody), async (c) => {
    const { db } = c.var;
    const { id } = c.req.valid("param");
    const { status } = c.req.valid("json");
    const user = await db.select({ id: users.id }).from(users).where(eq(users.id, id)).get();
    if (!user) throw notFound("User");
    await db
      .insert(subscriptions)
      .values({ userId: id, status })
      .onConflictDoUpdate({ target: subscriptions.userId, set: { status, updatedAt: new Date() } });
    return c.json({ user_id: id, status });
  });
