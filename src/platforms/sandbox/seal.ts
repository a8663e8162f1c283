// The sandbox keeps no state: its authorization codes and access tokens are JSON payloads signed with
// a key derived from ENCRYPTION_KEY (one key per purpose), so a code cannot pass for a token.
import type { Platform } from "../../db/enums";
import { derivedHmacKey, hmacSha256Hex, verifyHmacHex } from "../../lib/crypto";
import { fromBase64Url, toBase64Url, utf8 } from "../../lib/encoding";

export const CODE_PURPOSE = "sandbox-code-v1";
export const TOKEN_PURPOSE = "sandbox-token-v1";

/** An authorization code: platform, handle, client id, redirect URI, PKCE challenge, expiry (ms). */
export type CodePayload = { p: Platform; h: string; k: string; r: string; c: string | null; e: number };
/** An access token: platform and handle. */
export type TokenPayload = { p: Platform; h: string };

export async function seal(
  env: Pick<Env, "ENCRYPTION_KEY">,
  purpose: string,
  payload: object,
): Promise<string> {
  const body = toBase64Url(utf8(JSON.stringify(payload)));
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  return `${body}.${await hmacSha256Hex(key, body)}`;
}

/** The payload of a value sealed for `purpose`, else null (tampered, forged, or not one of ours). */
export async function unseal<T>(
  env: Pick<Env, "ENCRYPTION_KEY">,
  purpose: string,
  sealed: string | undefined | null,
): Promise<T | null> {
  const [body, mac, extra] = (sealed ?? "").split(".");
  if (!body || !mac || extra !== undefined) return null;
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  if (!(await verifyHmacHex(key, body, mac))) return null;
  return JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as T;
}
