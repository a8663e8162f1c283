// The API's shapes of an account: short (inside a workspace), list, and analytics forms.
import type { Account } from "../db/schema";

export const presentAccountShort = (a: Account) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  name: a.name,
  avatar: a.avatar,
});

export const presentAccount = (a: Account) => ({
  ...presentAccountShort(a),
  workspace_id: a.workspaceId,
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
