// Verifies a delegation proof, for the applications that receive one on their callback URL.
// Dependency-free: only WebCrypto and URLSearchParams, so it runs in Node ≥ 20, Workers, Deno and
// browsers. Exported by the package as "social-publishing-api/verify-proof".
//
// A proof is trusted only if all three hold (docs/guide.md, "Verify a proof"):
//   1. `sig` is the lowercase hex HMAC-SHA256, keyed with the signing secret, of
//      `platform={platform}&platform_id={platform_id}&handle={handle}&state={state}&expires={expires}`
//      (values as received, not URL-encoded), compared in constant time;
//   2. `expires` (Unix seconds) is in the future;
//   3. `state` is the value this application generated for this user, and is now marked used.
// The state check is delegated to the caller (`consumeState`) and runs last, so a forged or stale
// request cannot burn a user's pending state.

/** The platforms the service delegates for; a proof naming anything else was not made by it. */
export const PROOF_PLATFORMS = [
  "tiktok",
  "instagram",
  "twitter",
  "linkedin",
  "youtube",
  "facebook",
  "pinterest",
  "threads",
] as const;

export type ProofPlatform = (typeof PROOF_PLATFORMS)[number];

export type Proof = {
  platform: ProofPlatform;
  platform_id: string;
  handle: string;
  state: string;
  expires: number;
  sig: string;
};

/** What the service signs: the fields of a proof, the platform as its delegation flow stored it. */
export type ProofFields = Omit<Proof, "sig" | "platform"> & { platform: string };

export type VerifyFailure =
  /** The service redirected with `error` (access_denied, connection_failed, expired_request). */
  | "callback_error"
  /** A field is missing, repeated, or `expires` is not an integer. */
  | "malformed"
  | "bad_signature"
  | "expired"
  /** `consumeState` refused the state: not ours, not this user's, or already used. */
  | "state_rejected";

export type VerifyResult =
  | { ok: true; proof: Proof }
  | {
      ok: false;
      reason: VerifyFailure;
      /** For callback_error: the service's `error`, `error_description` and `state`. */
      error?: string;
      error_description?: string;
      state?: string;
    };

export type VerifyOptions = {
  /** The API key's signing secret (`sps_…`). */
  signingSecret: string;
  /**
   * Called once the signature and expiry hold. Return true only if `state` is the one generated for
   * this user's session and was not used before, and mark it used in the same step.
   */
  consumeState: (state: string) => boolean | Promise<boolean>;
  /** Milliseconds since the epoch; defaults to Date.now(). */
  now?: number;
};

const FIELDS = ["platform", "platform_id", "handle", "state", "expires"] as const;

/**
 * The signed string joins raw values with `&` and `=`, so a value holding either could move the
 * boundaries between fields under the same signature. The service never signs such a value; a
 * verifier must refuse one.
 */
export const isSignableValue = (value: string) => !/[&=]/.test(value);

/** The exact string the service signs. */
export function proofMessage(fields: { [K in keyof ProofFields]: string | number }): string {
  return FIELDS.map((name) => `${name}=${fields[name]}`).join("&");
}

function toParams(callback: string | URL | URLSearchParams): URLSearchParams {
  if (callback instanceof URLSearchParams) return callback;
  if (callback instanceof URL) return callback.searchParams;
  if (/^[a-z][a-z0-9+.-]*:/i.test(callback)) return new URL(callback).searchParams;
  return new URLSearchParams(callback);
}

const encoder = new TextEncoder();

async function signatureHolds(secret: string, message: string, sigHex: string): Promise<boolean> {
  if (!/^[0-9a-f]{64}$/.test(sigHex)) return false;
  const signature = new Uint8Array(32);
  for (let i = 0; i < 32; i++) signature[i] = Number.parseInt(sigHex.slice(i * 2, i * 2 + 2), 16);
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  // crypto.subtle.verify compares in constant time.
  return crypto.subtle.verify("HMAC", key, signature, encoder.encode(message));
}

/**
 * Verifies the query of a callback request: a full URL, a query string (with or without "?"), a URL
 * or URLSearchParams.
 */
export async function verifyProof(
  callback: string | URL | URLSearchParams,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const params = toParams(callback);
  const error = params.get("error");
  if (error !== null) {
    return {
      ok: false,
      reason: "callback_error",
      error,
      error_description: params.get("error_description") ?? "",
      state: params.get("state") ?? "",
    };
  }
  const values: Record<string, string> = {};
  for (const name of [...FIELDS, "sig"]) {
    const all = params.getAll(name);
    if (all.length !== 1) return { ok: false, reason: "malformed" };
    values[name] = all[0] as string;
  }
  if (!/^\d{1,15}$/.test(values.expires ?? "")) return { ok: false, reason: "malformed" };
  const platform = PROOF_PLATFORMS.find((name) => name === values.platform);
  if (!platform) return { ok: false, reason: "malformed" };
  if (FIELDS.some((name) => !isSignableValue(values[name] as string)))
    return { ok: false, reason: "malformed" };
  const proof: Proof = {
    platform,
    platform_id: values.platform_id as string,
    handle: values.handle as string,
    state: values.state as string,
    expires: Number(values.expires),
    sig: values.sig as string,
  };
  const message = proofMessage({ ...proof, expires: values.expires as string });
  if (!(await signatureHolds(options.signingSecret, message, proof.sig))) {
    return { ok: false, reason: "bad_signature" };
  }
  if (proof.expires * 1000 <= (options.now ?? Date.now())) return { ok: false, reason: "expired" };
  if (!(await options.consumeState(proof.state))) return { ok: false, reason: "state_rejected" };
  return { ok: true, proof };
}
