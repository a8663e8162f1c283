// The session endpoint's gate: the same key lookup as /api/v1, answered with the delegation codes.
import { createMiddleware } from "hono/factory";
import { lookupKey } from "../http/auth";
import type { AppEnv } from "../http/types";
import { invalidApiKey, missingApiKey, noSigningSecret } from "./errors";

export const delegationAuth = createMiddleware<AppEnv>(async (c, next) => {
  const result = await lookupKey(c.var.db, c.req.header("authorization"));
  if (result.kind === "missing") throw missingApiKey();
  if (result.kind !== "ok") throw invalidApiKey(result.kind === "expired");
  c.set("principal", result.principal);
  await next();
});

/** A key without a signing secret cannot create sessions, whatever the body says. */
export const requireSigningSecret = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.principal.signingSecretEnc) throw noSigningSecret();
  await next();
});
