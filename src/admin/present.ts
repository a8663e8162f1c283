// The operator API's view of an API key: what identifies it, never the key or its secret.
import type { ApiKey } from "../db/schema";

type ListedKey = Pick<
  ApiKey,
  "id" | "name" | "keyPrefix" | "abilities" | "expiresAt" | "createdAt" | "callbackOrigins" | "mode"
>;

/** `lastUsedMs`: the key's last request as the user's Coordinator recorded it, if ever. */
export const presentApiKey = (key: ListedKey, lastUsedMs: number | undefined) => ({
  id: key.id,
  name: key.name,
  prefix: key.keyPrefix,
  abilities: key.abilities,
  expires_at: key.expiresAt?.toISOString() ?? null,
  last_used_at: lastUsedMs === undefined ? null : new Date(lastUsedMs).toISOString(),
  created_at: key.createdAt.toISOString(),
  callback_origins: key.callbackOrigins ?? [],
  mode: key.mode,
});
