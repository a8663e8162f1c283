// The end of a connect flow, after the consent (one channel) or the pick (one of several): the account
// is stored and the browser goes to the redirect_url, or back with an error.
import { connectedLocation, starterRefusal, storeConnectedAccount } from "../accounts/connect";
import type { ConnectTarget, FlowTarget } from "../coordinator/flow";
import type { Platform } from "../db/enums";
import type { ShardDatabases } from "../db/shards";
import { failed } from "../oauth/failed";
import { platformLabel } from "../oauth/label";
import type { FlowOutcome } from "../oauth/outcome";
import type { Channel, Identity, PlatformToken } from "../platforms/types";

/**
 * Nothing is stored when the API key (or console session) that started the flow was revoked, expired or lost the `accounts`
 * ability meanwhile, nor when a reconnect ended on another platform identity than its account's.
 */
export async function storeConnect(
  shards: ShardDatabases,
  encryptionKey: string | undefined,
  target: FlowTarget & { connect: ConnectTarget },
  platform: Platform,
  connected: { token: PlatformToken; identity: Identity; channel: Channel | null },
  clear: string[],
): Promise<FlowOutcome> {
  const { keyId, workspaceId, accountId } = target.connect;
  // The key (or console session) lives on its own shard (src/db/shards.ts), the account on its workspace's.
  const refusal = keyId === undefined ? null : await starterRefusal(shards, keyId);
  if (refusal) return failed(target, "connection_failed", refusal, clear);
  const stored = await storeConnectedAccount(
    shards.of(workspaceId),
    encryptionKey,
    platform,
    target.connect,
    connected.token,
    connected.identity,
    connected.channel,
  );
  if (stored.kind === "other_identity")
    return failed(
      target,
      "connection_failed",
      `The ${platformLabel(platform)} account connected is not the one being reconnected. Sign in as that account and try again.`,
      clear,
    );
  if (stored.kind === "disconnected")
    return failed(
      target,
      "connection_failed",
      `The ${platformLabel(platform)} account was disconnected before its reconnection finished; nothing was changed. Connect it again to bring it back.`,
      clear,
    );
  if (stored.kind === "inaccessible")
    return failed(
      target,
      "connection_failed",
      accountId === undefined
        ? "The workspace of this connection is no longer accessible."
        : "The account being reconnected no longer exists or is no longer accessible.",
      clear,
    );
  return {
    kind: "connected",
    location: connectedLocation(target.callbackUrl, stored.accountId, platform),
    accountId: stored.accountId,
    cookies: clear,
  };
}
