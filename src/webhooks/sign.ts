// Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is `whsec_` + base64 of
// random bytes; each request carries `webhook-id`, `webhook-timestamp` (unix seconds) and
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the secret's
// decoded bytes. While a rolled secret is still honoured, the header lists one signature per secret,
// space-separated, as the specification allows, so receivers can switch secrets without losing events.
import { hmacKey } from "../lib/crypto";
import { fromBase64, toBase64, utf8 } from "../lib/encoding";

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` + base64 of 32 random bytes. */
export const newSecret = () =>
  `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;

/** The HMAC key bytes of a secret: the base64 after the prefix, decoded. */
export const secretBytes = (secret: string) =>
  fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);

/** `v1,<base64 signature>` of one message under one secret. */
export async function signature(secret: string, id: string, timestamp: number, body: string) {
  const key = await hmacKey(secretBytes(secret));
  const mac = await crypto.subtle.sign("HMAC", key, utf8(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(mac)}`;
}

/** The three Standard Webhooks headers of a request, signed with every secret given. */
export async function signedHeaders(secrets: string[], id: string, timestamp: number, body: string) {
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, id, timestamp, body)));
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
