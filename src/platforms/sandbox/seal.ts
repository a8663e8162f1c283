// The sandbox's authorization codes, access tokens and refresh tokens are JSON payloads signed with a key
// derived from ENCRYPTION_KEY (one key per purpose), so a code cannot pass for a token nor a token for a
// refresh token. They carry their own expiry; the only state is the SandboxStore's list of spent codes
// and rotated refresh tokens (src/sandbox/spent.ts), kept until they would have expired anyway.
import type { Platform } from "../../db/enums";
import { derivedHmacKey, hmacSha256Hex, verifyHmacHex } from "../../lib/crypto";
import { fromBase64Url, toBase64Url, utf8 } from "../../lib/encoding";

export const CODE_PURPOSE = "sandbox-code-v1";
export const TOKEN_PURPOSE = "sandbox-token-v1";
export const REFRESH_PURPOSE = "sandbox-refresh-v1";

/**
 * What every sealed grant names: platform, handle, client id, expiry (Unix ms), and the scopes the user
 * granted (`s`, as the authorize request asked for them). Absent: every scope (a token minted for an
 * account the operator created without tokens, as if connected with all of them). `o`: the user's space
 * its identity lives in (owner.ts); absent: the one shared space (SANDBOX=true).
 */
type Grant = { p: Platform; h: string; k: string; e: number; s?: string[]; o?: string };
/** An authorization code: plus its redirect URI, PKCE challenge and id (to spend it once). */
export type CodePayload = Grant & { r: string; c: string | null; n: string };
/**
 * An access token: plus when it was issued (Unix ms: a revocation refuses every token issued before it,
 * Meta's refresh wants a token at least a day old) and whether it is a long-lived one (Meta).
 */
export type TokenPayload = Grant & { i?: number; l?: boolean };
/** A refresh token: plus its id (a rotating one is spent on use) and when it was issued. */
export type RefreshPayload = Grant & { n: string; i?: number };

/** Whether an unsealed value has the fields every grant has (older sealed shapes lack an expiry). */
export const isGrant = (value: unknown): value is Grant => {
  const grant = value as Partial<Grant> | null;
  return (
    typeof grant === "object" &&
    grant !== null &&
    typeof grant.p === "string" &&
    typeof grant.h === "string" &&
    typeof grant.k === "string" &&
    typeof grant.e === "number"
  );
};

const field = (value: unknown, key: string) => (value as Record<string, unknown>)[key];

export const isCode = (value: unknown): value is CodePayload =>
  isGrant(value) &&
  typeof field(value, "r") === "string" &&
  typeof field(value, "n") === "string" &&
  (field(value, "c") === null || typeof field(value, "c") === "string");

export const isRefresh = (value: unknown): value is RefreshPayload =>
  isGrant(value) && typeof field(value, "n") === "string";

/** The space a sealed grant names (owner.ts); absent: the shared one. */
export const spaceOf = (grant: { o?: unknown }) => (typeof grant.o === "string" ? grant.o : null);

/** A random id for a code or a refresh token. */
export const grantId = () => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));

export async function seal(
  env: Pick<Env, "ENCRYPTION_KEY">,
  purpose: string,
  payload: object,
): Promise<string> {
  const body = toBase64Url(utf8(JSON.stringify(payload)));
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  return `${body}.${await hmacSha256Hex(key, body)}`;
}

const SEALED_MAX = 16_384;

/** The payload of a value sealed for `purpose`, else null (tampered, forged, or not one of ours). */
export async function unseal<T>(
  env: Pick<Env, "ENCRYPTION_KEY">,
  purpose: string,
  sealed: string | undefined | null,
): Promise<T | null> {
  // Far longer than anything sealed here: not worth an HMAC.
  if (!sealed || sealed.length > SEALED_MAX) return null;
  const [body, mac, extra] = sealed.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  if (!(await verifyHmacHex(key, body, mac))) return null;
  return JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as T;
}
