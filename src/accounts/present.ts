// The API's shapes of an account: short (inside a workspace), list, and analytics forms.
import type { Account } from "../db/schema";

export const presentAccountShort = (a: Account) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  name: a.name,
  avatar: a.avatar,
});

/**
 * An account's health: `reauth_required` once the platform refused its grant for good (`expired_at`,
 * src/accounts/tokens.ts), until a reconnect; the token's expiry, the last refresh and its last failure.
 */
export const presentHealth = (a: Account) => ({
  status: a.expiredAt !== null ? ("reauth_required" as const) : ("ok" as const),
  token_expires_at: a.tokenExpiresAt?.toISOString() ?? null,
  last_refreshed_at: a.lastRefreshedAt?.toISOString() ?? null,
  last_error: a.lastError ? { code: a.lastError.code, message: a.lastError.message } : null,
});

export const presentAccount = (a: Account) => ({
  ...presentAccountShort(a),
  workspace_id: a.workspaceId,
  has_expired: a.expiredAt !== null,
  health: presentHealth(a),
});

export const presentAccountAnalytics = (a: Account) => ({
  id: a.id,
  workspace_id: a.workspaceId,
  platform: a.platform,
  username: a.username,
  name: a.name,
  avatar: a.avatar,
  // Set when a token refresh failed for good: the account must be reconnected.
  has_expired: a.expiredAt !== null,
  is_default: a.isDefault,
  support_threads: a.supportThreads,
  is_verified: a.isVerified,
});
