// The opaque values a browser flow (a delegation or an account connect) hands out: the authorize token
// (in authorize_url), the state sent to the platform, the flow named in the channel page's form, and
// the cookie that binds the flow to the browser that opened it; and how the flow sends the browser back
// to the application.
//
// Every value that names a flow carries the flow id (16 random bytes) and a MAC of it (HMAC-SHA256
// under a key derived from ENCRYPTION_KEY, one key per use, first 16 bytes), both base64url: tampered or
// invented values are refused without touching a Durable Object, so a stranger cannot make the service
// create Coordinator instances. The flow lives in the Coordinator instance `delegation:<id>`.
//
//   authorize token   id ‖ MAC_authorize(id)
//   platform state    id ‖ MAC_state(id) "." secret    (the per-flow secret: only its hash is kept)
//   channel form      id ‖ MAC_choice(id)
import { derivedHmacKey, randomToken, timingSafeEqualText } from "../lib/crypto";
import { toBase64Url, utf8 } from "../lib/encoding";

const ID = "[A-Za-z0-9_-]{22}";
const SIGNED_ID = new RegExp(`^(${ID})(${ID})$`);
const PLATFORM_STATE = new RegExp(`^(${ID}${ID})\\.([A-Za-z0-9_-]{43})$`);

/** Where the flow's callback and its cookie live. */
export const CALLBACK_PATH = "/api/oauth/delegate/callback";
export const AUTHORIZE_PATH = "/api/oauth/delegate/authorize";

/** What a signed flow id is for: each use has its own key, so one cannot stand for another. */
type Use = "authorize" | "state" | "choice";
const PURPOSES: Record<Use, string> = {
  authorize: "delegation-token-v1",
  state: "delegation-state-v1",
  choice: "delegation-choice-v1",
};

async function mac(env: Pick<Env, "ENCRYPTION_KEY">, use: Use, id: string): Promise<string> {
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, PURPOSES[use]);
  const digest = await crypto.subtle.sign("HMAC", key, utf8(id));
  return toBase64Url(new Uint8Array(digest).slice(0, 16));
}

const signId = async (env: Pick<Env, "ENCRYPTION_KEY">, use: Use, id: string) =>
  `${id}${await mac(env, use, id)}`;

/** The flow id of a genuine signed id for `use`, else null. */
async function readSignedId(
  env: Pick<Env, "ENCRYPTION_KEY">,
  use: Use,
  signed: string,
): Promise<string | null> {
  const match = SIGNED_ID.exec(signed);
  if (!match) return null;
  const [, id, given] = match as unknown as [string, string, string];
  return timingSafeEqualText(given, await mac(env, use, id)) ? id : null;
}

export async function newAuthorizeToken(env: Pick<Env, "ENCRYPTION_KEY">) {
  const id = randomToken(16);
  return { id, token: await signId(env, "authorize", id) };
}

/** The flow id of a genuine authorize token, else null. */
export const readAuthorizeToken = (env: Pick<Env, "ENCRYPTION_KEY">, token: string) =>
  readSignedId(env, "authorize", token);

/** The `state` the service sends to the platform: the signed flow id and a per-flow secret. */
export const platformState = async (env: Pick<Env, "ENCRYPTION_KEY">, id: string, secret: string) =>
  `${await signId(env, "state", id)}.${secret}`;

/** The flow id and secret of a state this service made, else null (malformed, forged or invented). */
export async function readPlatformState(
  env: Pick<Env, "ENCRYPTION_KEY">,
  state: string | undefined,
): Promise<{ id: string; secret: string } | null> {
  const match = PLATFORM_STATE.exec(state ?? "");
  if (!match) return null;
  const id = await readSignedId(env, "state", match[1] as string);
  return id ? { id, secret: match[2] as string } : null;
}

/** The flow as the channel page's form names it (and sends it back). */
export const choiceToken = (env: Pick<Env, "ENCRYPTION_KEY">, id: string) => signId(env, "choice", id);

/** The flow id of a genuine channel form's `flow`, else null. */
export const readChoiceToken = (env: Pick<Env, "ENCRYPTION_KEY">, flow: string) =>
  readSignedId(env, "choice", flow);

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
