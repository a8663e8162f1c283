// Passkeys (WebAuthn) for the console, through SimpleWebAuthn: no CBOR, COSE or attestation parsing here.
// A user adds passkeys while signed in; anyone signs in with one without typing an email (discoverable
// credentials). The WebAuthn user handle is the user's id in decimal: ids name their shard
// (src/db/shards.ts), so the handle a browser answers with on sign-in leads to the one database holding
// the credential, without a directory, the way session tokens name theirs (tokens.ts). An id is no
// secret and carries nothing personal; the credential id and the signature are what prove the user.
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from "@simplewebauthn/server/helpers";
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../db/client";
import { passkeys } from "../db/schema";
import { MAX_SHARDS, type ShardDatabases, shardOfId } from "../db/shards";
import { ApiError, badRequest } from "../http/errors";
import { publicOrigin } from "../lib/origin";
import { holdChallenge, SIGN_IN_CHALLENGE_SHARD, takeChallenge } from "./passkey-challenges";

export const DEFAULT_RP_NAME = "Social Publishing API";

export type RelyingParty = { id: string; name: string; origin: string };

/** WEBAUTHN_RP_ID (default: the public origin's host name), WEBAUTHN_RP_NAME, and the expected origin. */
export function relyingParty(
  env: Pick<Env, "PUBLIC_BASE_URL" | "WEBAUTHN_RP_ID" | "WEBAUTHN_RP_NAME">,
  requestUrl: string,
): RelyingParty {
  const origin = publicOrigin(env, requestUrl);
  return {
    id: env.WEBAUTHN_RP_ID?.trim() || new URL(origin).hostname,
    name: env.WEBAUTHN_RP_NAME?.trim() || DEFAULT_RP_NAME,
    origin,
  };
}

/** A refusal of a passkey ceremony: no session, and a message the page shows. */
export const passkeyRefused = (message: string) => new ApiError(403, { message });

const userHandle = (userId: number) => isoUint8Array.fromUTF8String(String(userId));

/** The user a handle names, or null for anything that is not one of ours. */
function userIdOfHandle(handle: string | undefined): number | null {
  if (!handle || !isoBase64URL.isBase64URL(handle)) return null;
  const text = isoBase64URL.toUTF8String(handle);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && shardOfId(id) < MAX_SHARDS ? id : null;
}

// What the browser posts (credential.toJSON()), checked for shape before the library reads it.
const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/);
const credentialFields = {
  id: base64url.min(1),
  rawId: base64url.min(1),
  type: z.literal("public-key"),
  authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
  // No extensions are asked for, so none are read.
  clientExtensionResults: z.unknown().transform(() => ({})),
};
const registrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
});
const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
});

/** The form's `response` field: the credential's JSON, or a 400. */
function readResponse<T extends z.ZodType>(schema: T, field: unknown): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(typeof field === "string" ? field : "");
  } catch {
    throw badRequest("The passkey's answer could not be read.");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw badRequest("The passkey's answer could not be read.");
  return parsed.data;
}

/** The challenge the browser signed, as its client data says (the library checks the rest). */
function challengeOf(clientDataJSON: string): string {
  try {
    return decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    throw badRequest("The passkey's answer could not be read.");
  }
}

/** A name a person recognises in the list: the browser and system that made it. */
export function defaultPasskeyName(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = [
    ["Edg/", "Edge"],
    ["Firefox/", "Firefox"],
    ["Chrome/", "Chrome"],
    ["Safari/", "Safari"],
  ].find(([token]) => ua.includes(token!))?.[1];
  const system = [
    ["Android", "Android"],
    ["iPhone", "iPhone"],
    ["iPad", "iPad"],
    ["CrOS", "ChromeOS"],
    ["Mac OS X", "macOS"],
    ["Windows", "Windows"],
    ["Linux", "Linux"],
  ].find(([token]) => ua.includes(token!))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Passkey";
}

export const PASSKEY_NAME_MAX = 80;

/** The user's passkeys, oldest first. */
export const passkeysOf = (db: Database, userId: number) =>
  db
    .select({
      id: passkeys.id,
      credentialId: passkeys.credentialId,
      transports: passkeys.transports,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.id));

export type ListedPasskey = Awaited<ReturnType<typeof passkeysOf>>[number];

/** Options for adding a passkey: a discoverable credential, none of the user's own again. */
export async function registrationOptions(
  db: Database,
  rp: RelyingParty,
  user: { id: number; email: string; name: string },
) {
  const existing = await passkeysOf(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandle(user.id),
    userName: user.email,
    userDisplayName: user.name,
    attestationType: "none",
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports })),
    // Required: sign-in asks for no email, so the authenticator must keep the credential and its user.
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await holdChallenge(db, options.challenge, user.id);
  return options;
}

/** Checks the new credential against the user's challenge, this origin and rp id; keeps it. */
export async function registerPasskey(
  db: Database,
  rp: RelyingParty,
  userId: number,
  field: unknown,
  userAgent: string | undefined,
) {
  const response: RegistrationResponseJSON = readResponse(registrationResponse, field);
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!(await takeChallenge(db, challenge, userId)))
    throw passkeyRefused("This passkey request has expired or was already used: try again.");
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw passkeyRefused("The passkey could not be verified.");
  const { credential } = verification.registrationInfo;
  const [row] = await db
    .insert(passkeys)
    .values({
      userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: defaultPasskeyName(userAgent),
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  if (!row) throw badRequest("This passkey is already registered.");
  return row;
}

/** Options for signing in with any passkey of this site (no email asked: discoverable credentials). */
export async function signInOptions(shards: ShardDatabases, rp: RelyingParty) {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "preferred" });
  await holdChallenge(shards.at(SIGN_IN_CHALLENGE_SHARD), options.challenge, null);
  return options;
}

/**
 * Checks a sign-in: the challenge (taken once), the credential (registered to the user its handle
 * names), origin, rp id, signature and counter. Records the use; answers the user and their shard.
 */
export async function verifyPasskeySignIn(shards: ShardDatabases, rp: RelyingParty, field: unknown) {
  const response: AuthenticationResponseJSON = readResponse(authenticationResponse, field);
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!(await takeChallenge(shards.at(SIGN_IN_CHALLENGE_SHARD), challenge, null)))
    throw passkeyRefused("This sign-in request has expired or was already used: try again.");
  const userId = userIdOfHandle(response.response.userHandle);
  const shard = userId === null ? 0 : shardOfId(userId);
  const db = shards.at(shard);
  const [key] =
    userId === null
      ? []
      : await db
          .select()
          .from(passkeys)
          .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.userId, userId)));
  if (!key) throw passkeyRefused("This passkey is not registered here.");
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: key.credentialId,
        publicKey: isoBase64URL.toBuffer(key.publicKey),
        counter: key.counter,
        transports: key.transports,
      },
      requireUserVerification: false,
    });
  } catch {
    // A wrong origin or rp id, a bad signature, a counter that went backwards (a cloned authenticator).
    throw passkeyRefused("The passkey could not be verified.");
  }
  if (!verification.verified) throw passkeyRefused("The passkey could not be verified.");
  // max(): of two sign-ins racing, the later write never lowers the counter the other stored.
  const counter = verification.authenticationInfo.newCounter;
  await db
    .update(passkeys)
    .set({ counter: sql`max(${passkeys.counter}, ${counter})`, lastUsedAt: new Date() })
    .where(eq(passkeys.id, key.id));
  return { userId: key.userId, shard };
}

/** Removes one of the user's passkeys; false when it is not theirs (or gone). */
export async function removePasskey(db: Database, userId: number, passkeyId: number) {
  const gone = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return gone.length > 0;
}

/** Renames one of the user's passkeys; false when it is not theirs (or gone). */
export async function renamePasskey(db: Database, userId: number, passkeyId: number, name: string) {
  const renamed = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, passkeyId), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return renamed.length > 0;
}
