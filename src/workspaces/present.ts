// The spec's shapes of a workspace and of an account (short, list and analytics forms).
import type { Account, Workspace } from "../db/schema";

export const presentWorkspace = (w: Workspace) => ({
  id: w.id,
  name: w.name,
  slug: w.slug,
  type: w.type,
  logo: w.logo,
  timezone: w.timezone,
  language: w.language,
});

export const presentAccountShort = (a: Account) => ({
  id: a.id,
  platform: a.platform,
  username: a.username,
  name: a.name,
  avatar: a.avatar,
});

export const presentAccountList = (a: Account) => ({
  ...presentAccountShort(a),
  workspace_id: a.workspaceId,
});

export const presentAccountAnalytics = (a: Account, now = Date.now()) => ({
  id: a.id,
  workspace_id: a.workspaceId,
  platform: a.platform,
  username: a.username,
  name: a.name,
  avatar: a.avatar,
  has_expired: a.tokenExpiresAt !== null && a.tokenExpiresAt.getTime() <= now,
  is_default: a.isDefault,
  support_threads: a.supportThreads,
  is_verified: a.isVerified,
});
