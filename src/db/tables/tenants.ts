import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import {
  type Ability,
  APPROVAL_POLICIES,
  DEFAULTS,
  MODES,
  SUBSCRIPTION_STATUSES,
  WORKSPACE_TYPES,
} from "../enums";
import { createdAt, id, updatedAt } from "./columns";

export const users = sqliteTable("users", {
  id: id(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const subscriptions = sqliteTable("subscriptions", {
  id: id(),
  userId: integer("user_id")
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: "cascade" }),
  status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull(),
  updatedAt: updatedAt(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    // SHA-256 (hex) of the whole key; the plaintext is shown once and never stored.
    keyHash: text("key_hash").notNull(),
    // The first characters of the key, enough for a person to recognise it in a list.
    keyPrefix: text("key_prefix").notNull(),
    abilities: text("abilities", { mode: "json" }).$type<Ability[]>().notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    // AES-GCM ciphertext (base64) of the delegation signing secret.
    signingSecretEnc: text("signing_secret_enc"),
    createdAt: createdAt(),
    // Origins a delegation session's callback_url may use; empty or null: any https URL.
    callbackOrigins: text("callback_origins", { mode: "json" }).$type<string[]>(),
    // Which data the key sees: live (the platforms) or test (their emulators); fixed at creation.
    mode: text("mode", { enum: MODES }).notNull().default("live"),
  },
  (t) => [uniqueIndex("api_keys_key_hash_unique").on(t.keyHash), index("api_keys_user_id_idx").on(t.userId)],
);

export const workspaces = sqliteTable("workspaces", {
  id: id(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  type: text("type", { enum: WORKSPACE_TYPES }).notNull().default(DEFAULTS.workspaceType),
  logo: text("logo"),
  timezone: text("timezone").notNull().default(DEFAULTS.timezone),
  language: text("language").notNull().default(DEFAULTS.language),
  // Live or test, fixed at creation: a test workspace's accounts are the emulators' (src/platforms/index.ts).
  mode: text("mode", { enum: MODES }).notNull().default("live"),
  // `required`: a post to be published waits in PENDING_APPROVAL for a decision (src/approvals).
  approval: text("approval", { enum: APPROVAL_POLICIES }).notNull().default("none"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  // Maintained by triggers (migrations/0005): lists answer their exact total without counting rows.
  postCount: integer("post_count").notNull().default(0),
  mediaCount: integer("media_count").notNull().default(0),
  // Maintained by triggers (migrations/0013): the bytes of the workspace's items that are not failed
  // (an import still running counts with the bytes it holds), what its storage quota is checked against.
  mediaBytes: integer("media_bytes").notNull().default(0),
});

export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The workspace's mode, copied by a trigger (migrations/0025) so that the tenant scope (src/db/
    // tenancy.ts) finds a key's workspaces of its mode through this index alone.
    mode: text("mode", { enum: MODES }).notNull().default("live"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index("workspace_members_user_mode_idx").on(t.userId, t.mode, t.workspaceId),
  ],
);

// The console's sign-in links (src/console/links.ts): single use, 15 minutes. Only the token's SHA-256
// is stored; `used_at` is set by the one UPDATE that consumes it.
export const signInLinks = sqliteTable(
  "sign_in_links",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("sign_in_links_token_hash_unique").on(t.tokenHash),
    index("sign_in_links_user_id_idx").on(t.userId),
    // The cron's cleanup walks the expired ones (src/console/sweep.ts).
    index("sign_in_links_expires_at_idx").on(t.expiresAt),
  ],
);

// The console's sessions (src/console/sessions.ts): the cookie holds a random id, this table its SHA-256.
// Idle after 12 h without use, over 30 days after creation, whatever the use.
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    idHash: text("id_hash").notNull(),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("console_sessions_id_hash_unique").on(t.idHash),
    index("console_sessions_user_id_idx").on(t.userId),
    // The cron's cleanup walks the idle ones and the ones over their lifetime (src/console/sweep.ts).
    index("console_sessions_last_used_at_idx").on(t.lastUsedAt),
    index("console_sessions_created_at_idx").on(t.createdAt),
  ],
);

// The console's passkeys (src/console/passkeys.ts): WebAuthn credentials a user signs in with. The
// credential id is what the browser names on sign-in; the public key (COSE, base64url) checks its
// signature; the counter must grow when the authenticator keeps one (a clone would repeat it).
export const passkeys = sqliteTable(
  "passkeys",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).$type<string[]>().notNull(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("passkeys_credential_id_unique").on(t.credentialId),
    index("passkeys_user_id_idx").on(t.userId),
  ],
);

// WebAuthn challenges (src/console/passkey-challenges.ts): random, single use (taken by one DELETE …
// RETURNING), 5 minutes. A registration's belongs to its user, in the user's shard; a sign-in's has no
// user yet (user_id null) and lives in shard 0, the one database every deployment has.
export const passkeyChallenges = sqliteTable(
  "passkey_challenges",
  {
    id: id(),
    challenge: text("challenge").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("passkey_challenges_challenge_unique").on(t.challenge),
    // The cron's cleanup walks the expired ones (src/console/sweep.ts).
    index("passkey_challenges_expires_at_idx").on(t.expiresAt),
  ],
);

// The security log (src/db/security-events.ts): every change of a key or a secret, written in the batch
// that makes it, kept a year (src/console/sweep.ts). `label` names the key (name and prefix) or endpoint
// (URL) as it was, since a revoked or rolled key's row is gone; `session_id` and `user_agent` say which
// console session acted.
export const SECURITY_EVENT_KINDS = [
  "key_created",
  "key_changed",
  "key_rolled",
  "key_revoked",
  "signing_secret_generated",
  "callback_origins_changed",
  "webhook_secret_rolled",
] as const;
export const SECURITY_ACTORS = ["console", "operator", "api"] as const;

export const securityEvents = sqliteTable(
  "security_events",
  {
    id: id(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SECURITY_EVENT_KINDS }).notNull(),
    subject: integer("subject").notNull(),
    label: text("label").notNull(),
    actor: text("actor", { enum: SECURITY_ACTORS }).notNull(),
    sessionId: integer("session_id"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    index("security_events_user_id_idx").on(t.userId),
    // The cron's cleanup walks the ones over a year old (src/console/sweep.ts).
    index("security_events_created_at_idx").on(t.createdAt),
  ],
);
