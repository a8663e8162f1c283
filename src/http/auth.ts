// Bearer API keys: SHA-256 of the key, one indexed lookup, a principal for the rest of the request.
import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Database } from "../db/client";
import { apiKeys } from "../db/schema";
import { sha256Hex } from "../lib/crypto";
import type { ApiEnv, Principal } from "./env";
import { expiredKey, invalidApiKey, missingApiKey, unauthenticated } from "./errors";

export type KeyLookup =
  | { kind: "missing" }
  | { kind: "invalid" }
  | { kind: "expired" }
  | { kind: "ok"; principal: Principal };

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export async function lookupKey(
  db: Database,
  header: string | undefined,
  now = Date.now(),
): Promise<KeyLookup> {
  const token = bearerToken(header);
  if (!token) return { kind: "missing" };
  // Bound the work an absurd header can cause; real keys are far shorter.
  if (token.length > 200) return { kind: "invalid" };
  const row = await db
    .select({
      userId: apiKeys.userId,
      keyId: apiKeys.id,
      abilities: apiKeys.abilities,
      expiresAt: apiKeys.expiresAt,
      signingSecretEnc: apiKeys.signingSecretEnc,
      callbackOrigins: apiKeys.callbackOrigins,
    })
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, await sha256Hex(token)))
    .get();
  if (!row) return { kind: "invalid" };
  if (row.expiresAt && row.expiresAt.getTime() <= now) return { kind: "expired" };
  return { kind: "ok", principal: row };
}

/** The API v1 authentication: 401 `Unauthenticated.` or `Expired`. */
export const authenticate = createMiddleware<ApiEnv>(async (c, next) => {
  const result = await lookupKey(c.var.db, c.req.header("authorization"));
  if (result.kind === "expired") throw expiredKey();
  if (result.kind !== "ok") throw unauthenticated();
  c.set("principal", result.principal);
  await next();
});

/** The delegation session endpoint's authentication: the same lookup, answered with its codes. */
export const authenticateDelegation = createMiddleware<ApiEnv>(async (c, next) => {
  const result = await lookupKey(c.var.db, c.req.header("authorization"));
  if (result.kind === "missing") throw missingApiKey();
  if (result.kind !== "ok") throw invalidApiKey(result.kind === "expired");
  c.set("principal", result.principal);
  await next();
});
