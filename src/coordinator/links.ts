// The opaque values a browser flow (a delegation or an account connect) hands out: the authorize token
// (in authorize_url), the state sent to the platform, and the cookie that binds the flow to the browser
// that opened it; and how the flow sends the browser back to the application.
//
// authorize token = id (16 random bytes) + a MAC of the id (HMAC-SHA256 under a key derived from
// ENCRYPTION_KEY, first 16 bytes), both base64url: tampered or invented tokens are refused without
// touching a Durable Object. The flow lives in the Coordinator instance `delegation:<id>`.
import { derivedHmacKey, randomToken, timingSafeEqualText } from "../lib/crypto";
import { toBase64Url, utf8 } from "../lib/encoding";

const ID = "[A-Za-z0-9_-]{22}";
const TOKEN = new RegExp(`^(${ID})(${ID})$`);
const PLATFORM_STATE = new RegExp(`^(${ID})\\.([A-Za-z0-9_-]{43})$`);
/** A flow id as the channel page's form sends it back. */
export const FLOW_ID = new RegExp(`^${ID}$`);

/** Where the flow's callback and its cookie live. */
export const CALLBACK_PATH = "/api/oauth/delegate/callback";
export const AUTHORIZE_PATH = "/api/oauth/delegate/authorize";

async function mac(env: Pick<Env, "ENCRYPTION_KEY">, id: string): Promise<string> {
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, "delegation-token-v1");
  const digest = await crypto.subtle.sign("HMAC", key, utf8(id));
  return toBase64Url(new Uint8Array(digest).slice(0, 16));
}

export async function newAuthorizeToken(env: Pick<Env, "ENCRYPTION_KEY">) {
  const id = randomToken(16);
  return { id, token: `${id}${await mac(env, id)}` };
}

/** The flow id of a genuine authorize token, else null. */
export async function readAuthorizeToken(
  env: Pick<Env, "ENCRYPTION_KEY">,
  token: string,
): Promise<string | null> {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  return timingSafeEqualText(given, await mac(env, id)) ? id : null;
}

/** The `state` the service sends to the platform: the flow id and a per-flow secret. */
export const platformState = (id: string, secret: string) => `${id}.${secret}`;

export function readPlatformState(state: string | undefined): { id: string; secret: string } | null {
  const match = PLATFORM_STATE.exec(state ?? "");
  return match ? { id: match[1] as string, secret: match[2] as string } : null;
}

export const browserCookieName = (id: string) => `sp_delegation_${id}`;

/** Binds the flow to this browser until the callback (SameSite=Lax survives the platform's redirect). */
export function browserCookie(id: string, value: string, origin: string, maxAgeSeconds: number): string {
  const secure = origin.startsWith("https:") ? "; Secure" : "";
  return `${browserCookieName(id)}=${value}; Path=${CALLBACK_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

export const clearBrowserCookie = (id: string, origin: string) => browserCookie(id, "", origin, 0);

export type CallbackError = "access_denied" | "connection_failed" | "expired_request";

/** callback_url plus parameters, appended so the application's own query stays byte for byte. */
export function withParams(callbackUrl: string, params: Record<string, string>): string {
  const separator = callbackUrl.includes("?") ? (/[?&]$/.test(callbackUrl) ? "" : "&") : "?";
  return `${callbackUrl}${separator}${new URLSearchParams(params)}`;
}
