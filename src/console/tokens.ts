// The console's bearer tokens (session ids in the cookie, sign-in link tokens): random, stored only as
// their SHA-256, and naming the shard of their user the way API keys do (src/db/shards.ts), so a
// request opens one database without a directory.
import { MAX_SHARDS } from "../db/shards";
import { randomToken, sha256Hex } from "../lib/crypto";

export type TokenKind = "s" | "l";

/** `s_…`/`l_…` in shard 0, `s3_…` in shard 3: 32 random bytes after the prefix. */
export async function newToken(kind: TokenKind, shard: number) {
  const token = `${kind}${shard === 0 ? "" : shard}_${randomToken(32)}`;
  return { token, hash: await sha256Hex(token) };
}

/** The token's shard and hash, or null for anything not shaped like one of `kind`. */
export async function readToken(kind: TokenKind, token: string | undefined) {
  const match = token ? /^([sl])([1-9]\d{0,3})?_[A-Za-z0-9_-]{43}$/.exec(token) : null;
  if (!match || match[1] !== kind) return null;
  const shard = Number(match[2] ?? 0);
  if (shard >= MAX_SHARDS) return null;
  return { shard, hash: await sha256Hex(token!) };
}
