// API keys and signing secrets: generated here, shown once, stored only as a hash or ciphertext.
import type { Mode } from "../db/enums";
import { keyPrefixOf } from "../db/shards";
import { randomToken, sha256Hex } from "../lib/crypto";

export const SIGNING_SECRET_PREFIX = "sps_";

/** A key of a user in `shard`: its prefix names the shard (src/db/shards.ts), so the gate needs no lookup to find it. */
export async function generateApiKey(
  shard: number,
  mode: Mode,
): Promise<{ key: string; hash: string; prefix: string }> {
  const key = `${keyPrefixOf(shard, mode)}${randomToken(32)}`;
  return { key, hash: await sha256Hex(key), prefix: key.slice(0, 12) };
}

export const generateSigningSecret = () => `${SIGNING_SECRET_PREFIX}${randomToken(32)}`;
