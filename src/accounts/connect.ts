// The end of a connect flow (POST /api/v1/accounts/connect): the delegation browser routes ran the
// single-use flow, the consent and the code exchange; here the platform's tokens are encrypted and the
// account is upserted by (workspace, platform, platform user id), or, for a reconnect, the named account
// is updated when the platform identity is its own; and the redirect_url the browser lands on is built.

import { eq } from "drizzle-orm";
import type { ConnectTarget } from "../coordinator/flow";
import { withParams } from "../coordinator/links";
import type { Database } from "../db/client";
import type { Mode, Platform } from "../db/enums";
import { apiKeys, consoleSessions } from "../db/schema";
import type { ShardDatabases } from "../db/shards";
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { starterOf } from "../oauth/start";
import { publishingAdapter } from "../platforms";
import type { Channel, Identity, PlatformToken } from "../platforms/types";
import { type GrantOf, grantInUse } from "./grant";
import { reconnectAccount, upsertAccount } from "./queries";

/**
 * Stores the connected account: its tokens AES-GCM encrypted (never plaintext in D1) and its profile.
 * With a `channel` (src/accounts/channels.ts) the account is the channel: its id, handle, name and
 * avatar, and its own token where it has one (a Facebook Page's, which does not expire and is not
 * refreshed: the user's refresh token and expiry are not kept with it). The account's id, or null when
 * the user is no longer a member of the workspace.
 */
export type StoreResult =
  | { kind: "ok"; accountId: number }
  /** The user is no longer a member of the workspace (or, for a reconnect, the account is gone). */
  | { kind: "inaccessible" }
  /** A reconnect ended on another platform identity than the account's: nothing was stored. */
  | { kind: "other_identity" }
  /** The account being reconnected was disconnected during the flow: nothing was stored or revived. */
  | { kind: "disconnected" };

export async function storeConnectedAccount(
  db: Database,
  encryptionKey: string | undefined,
  platform: Platform,
  target: ConnectTarget,
  token: PlatformToken,
  identity: Identity,
  channel: Channel | null = null,
  now = Date.now(),
): Promise<StoreResult> {
  const ownToken = channel?.accessToken;
  const [accessTokenEnc, refreshTokenEnc] = await Promise.all([
    encryptSecret(encryptionKey, ownToken ?? token.accessToken),
    token.refreshToken && !ownToken ? encryptSecret(encryptionKey, token.refreshToken) : null,
  ]);
  const handle = (channel?.handle || identity.handle || identity.platform_id).slice(0, 255);
  const name = (channel?.name || identity.name || handle).slice(0, 255);
  const account = {
    workspaceId: target.workspaceId,
    userId: target.userId,
    mode: target.mode ?? "live",
    platform,
    platformUserId: channel?.id ?? identity.platform_id,
    grantUserId: identity.platform_id,
    username: handle,
    name,
    avatar: safeAvatar(channel ? channel.avatar : identity.avatar),
    isVerified: channel ? false : (identity.verified ?? false),
    accessTokenEnc,
    refreshTokenEnc,
    tokenExpiresAt: token.expiresIn && !ownToken ? now + token.expiresIn * 1000 : null,
  };
  if (target.accountId !== undefined) {
    const [[stored], updated] = await db.batch(reconnectAccount(db, target.accountId, account));
    if (updated[0]) return { kind: "ok", accountId: updated[0].id };
    if (!stored) return { kind: "inaccessible" };
    return stored.disconnectedAt ? { kind: "disconnected" } : { kind: "other_identity" };
  }
  const [rows] = await db.batch([upsertAccount(db, account)]);
  return rows[0] ? { kind: "ok", accountId: rows[0].id } : { kind: "inaccessible" };
}

/**
 * Whether the API key that started a connect flow still stands when the flow finishes: a key revoked
 * (deleted), expired or stripped of the `accounts` ability meanwhile stores nothing, as it could not
 * start the flow any more. Read from the key's shard.
 */
export async function connectKeyValid(db: Database, keyId: number, now = Date.now()): Promise<boolean> {
  const key = await db
    .select({ expiresAt: apiKeys.expiresAt, abilities: apiKeys.abilities })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId))
    .get();
  return (
    key !== undefined &&
    (key.expiresAt === null || key.expiresAt.getTime() > now) &&
    key.abilities.includes("accounts")
  );
}

/**
 * Why a connect flow's starter (src/oauth/start.ts) can no longer store its account, or null when it
 * can: an API key as connectKeyValid says; a console session that was ended meanwhile (signed out,
 * revoked from the security page, swept once idle) stores nothing either. Each is read on its own shard.
 */
export async function starterRefusal(shards: ShardDatabases, recorded: number): Promise<string | null> {
  const starter = starterOf(recorded);
  if ("keyId" in starter)
    return (await connectKeyValid(shards.of(starter.keyId), starter.keyId))
      ? null
      : "The API key that requested this connection is no longer valid (revoked, expired, or without the accounts ability).";
  const id = starter.consoleSessionId;
  const session = await shards
    .of(id)
    .select({ id: consoleSessions.id })
    .from(consoleSessions)
    .where(eq(consoleSessions.id, id))
    .get();
  return session
    ? null
    : "The console session that started this connection has ended. Sign in and try again.";
}

/** An avatar is shown by clients as an image link: only an https URL of sane length is kept. */
const safeAvatar = (url: string | null | undefined) =>
  url && url.length <= 2048 && URL.canParse(url) && new URL(url).protocol === "https:" ? url : null;

/** redirect_url on success: `status=connected&account_id=…&platform=…`. */
export const connectedLocation = (redirectUrl: string, accountId: number, platform: string) =>
  withParams(redirectUrl, { status: "connected", account_id: String(accountId), platform });

/**
 * Revokes a disconnected account's token at the platform, where the platform offers revocation, so
 * the service's grant ends with the account, unless another account may still rest on the grant. Best effort: the account is already deleted, so a failure
 * is only logged (the token then lives until the platform expires it).
 */
export async function revokeDisconnected(
  env: Env,
  account: GrantOf & {
    mode: Mode;
    username: string;
    platformUserId: string | null;
    accessTokenEnc: string | null;
    refreshTokenEnc: string | null;
  },
): Promise<void> {
  if (!account.accessTokenEnc) return;
  // A grant another account still rests on (any tenant) is left alone: revoking it would end that one.
  if (await grantInUse(env, account)) return;
  try {
    const [accessToken, refreshToken] = await Promise.all([
      decryptSecret(env.ENCRYPTION_KEY, account.accessTokenEnc),
      account.refreshTokenEnc ? decryptSecret(env.ENCRYPTION_KEY, account.refreshTokenEnc) : null,
    ]);
    await publishingAdapter(env, account.platform, account.mode).revoke({
      handle: account.username,
      platformUserId: account.platformUserId,
      accessToken,
      refreshToken,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.warn(`disconnect: the ${account.platform} token was not revoked: ${reason}`);
  }
}
