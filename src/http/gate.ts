// The gate in front of every API-key route: who is calling (the key), whether they may (the 60 per
// minute window in their Coordinator), with as few sequential remote calls as the request allows.
//
// - The key names its shard (src/db/shards.ts): the request opens only that database.
// - Cold (a key this isolate has not seen): the D1 lookup first. Warm: the isolate's cached key.
// - The Coordinator call then starts, and the route runs alongside it: a GET reads while the
//   Coordinator counts, so a warm GET is one sequential hop. A write's database writes wait for the
//   admission (the metered D1 holds them, src/http/meter.ts), so a warm create is two: the Coordinator
//   alongside the reads, then the write batch. Routes with effects outside D1 wait for the admission
//   before their handler runs (src/http/abilities.ts awaitAdmission).
// - The Coordinator refuses a stale cached key (the operator changed or revoked it since:
//   src/coordinator/key-state.ts) without counting it; the gate re-reads the key from D1 and asks
//   again, and the route's ability is checked against the key as it now stands. A cached key that has
//   expired is refused only once its Coordinator confirms it is current (the operator may have extended
//   it). A revocation, roll, abilities or expiry change holds from the very next request, on every
//   isolate.
// - A key D1 does not have is remembered for a while (key-cache.ts): sent again, it is refused without
//   a lookup.
// - A refused window is remembered until it closes: the Coordinator refuses every request until then
//   anyway (refusals do not consume the window), so those 429s cost no remote call at all.
// - A create that carries an Idempotency-Key claims it in the same Coordinator call (src/http/
//   idempotency.ts): once the route's idempotency middleware takes the claim, `admitted()` also waits
//   for it, so nothing a repeat must not do (a write, a queue message, a Durable Object) happens unless
//   the claim proceeded. A claim no middleware took (the request was refused first) is released.
import { createMiddleware } from "hono/factory";
import type { AdmitResult, RateDecision } from "../coordinator/names";
import { userCoordinator } from "../coordinator/names";
import { shardOfKey } from "../db/shards";
import { sha256Hex } from "../lib/crypto";
import { bearerToken, type LoadedKey, loadKey, MAX_KEY_LENGTH } from "./auth";
import type { ApiEnv, DbEnv, HeldClaim, Principal } from "./env";
import {
  ApiError,
  expiredKey,
  forbidden,
  invalidApiKey,
  missingApiKey,
  tooManyAttempts,
  unauthenticated,
} from "./errors";
import { claimFor, releaseUntaken, waitForClaim } from "./idempotency";
import { keyCache, refusals, unknownKeys } from "./key-cache";

export const RATE_LIMIT = 60;
export const RATE_WINDOW_MS = 60_000;

/** `api`: `Unauthenticated.` / `Expired`; `coded`: the delegation session endpoint's codes. */
type GateStyle = "api" | "coded";

type Refused = "missing" | "invalid" | "expired";

/**
 * Every bearer 401 challenges (RFC 6750 §3): `Bearer realm="api"`, with `error="invalid_token"` when a
 * key was sent but is not one (unknown, revoked, expired). Without it, MCP clients (the inspector) take
 * a bare 401 for an OAuth server's and start a login. The body stays the spec's.
 */
function challenged(error: ApiError, kind: Refused): ApiError {
  const challenge = `Bearer realm="api"${kind === "missing" ? "" : ', error="invalid_token"'}`;
  const options = { headers: { ...error.headers, "WWW-Authenticate": challenge } };
  return new ApiError(401, error.body, error.code ? { ...options, code: error.code } : options);
}

const refusal = (style: GateStyle, kind: Refused) => {
  if (style === "coded")
    return challenged(kind === "missing" ? missingApiKey() : invalidApiKey(kind === "expired"), kind);
  return challenged(kind === "expired" ? expiredKey() : unauthenticated(), kind);
};

const rateHeaders = (decision: Pick<RateDecision, "limit" | "remaining">) => ({
  "X-RateLimit-Limit": String(decision.limit),
  "X-RateLimit-Remaining": String(decision.remaining),
});

function tooMany(resetAt: number, now: number) {
  return tooManyAttempts({
    ...rateHeaders({ limit: RATE_LIMIT, remaining: 0 }),
    "Retry-After": String(Math.max(1, Math.ceil((resetAt - now) / 1000))),
    "X-RateLimit-Reset": String(Math.ceil(resetAt / 1000)),
  });
}

export const apiGate = (style: GateStyle) =>
  createMiddleware<ApiEnv>(async (c, next) => {
    const now = Date.now();
    const token = bearerToken(c.req.header("authorization"));
    if (!token) throw refusal(style, "missing");
    if (token.length > MAX_KEY_LENGTH) throw refusal(style, "invalid");
    // The key names its user's shard; everything the request reads or writes is there.
    const shard = shardOfKey(token);
    if (shard === null || shard >= c.var.shards.count) throw refusal(style, "invalid");
    c.set("db", c.var.shards.at(shard));
    const hash = await sha256Hex(token);
    const expired = (k: LoadedKey) =>
      k.principal.expiresAt !== null && k.principal.expiresAt.getTime() <= now;
    /** The key as D1 has it now (cached for the next request), or the refusal it gets. */
    const lookUp = async () => {
      const found = await loadKey(c.var.db, hash);
      if (!found) {
        unknownKeys.miss(hash, now);
        throw refusal(style, "invalid");
      }
      unknownKeys.forget(hash);
      keyCache.set(hash, found, now);
      if (expired(found)) throw refusal(style, "expired");
      return found;
    };
    const cached = keyCache.get(hash, now);
    // A key D1 did not have a moment ago is refused without asking it again (key-cache.ts).
    if (!cached && unknownKeys.refuses(hash, now)) throw refusal(style, "invalid");
    let key = cached ?? (await lookUp());
    let fromCache = cached !== undefined;
    const coordinator = c.env.COORDINATOR.getByName(userCoordinator(key.principal));
    if (fromCache && expired(key)) {
      // The operator may have extended it since it was cached: like any other change, its Coordinator
      // knows (one call, nothing counted). Still current: expired. Stale: the key as D1 has it now.
      const { keyId } = key.principal;
      const { digest } = key;
      const current = await c.var.meter.gate(() => coordinator.keyIsCurrent(keyId, digest));
      if (current) throw refusal(style, "expired");
      keyCache.evict(hash);
      key = await lookUp();
      fromCache = false;
    }
    const window = userCoordinator(key.principal);
    const refusedUntil = refusals.until(window, now);
    if (refusedUntil !== undefined) throw tooMany(refusedUntil, now);
    c.set("principal", key.principal);
    // An idempotent create's Idempotency-Key, claimed by the admission itself.
    const claim = await claimFor(c);

    const admit = (k: LoadedKey, cachedCopy: boolean) =>
      c.var.meter.gate<AdmitResult>(async () => {
        // The RPC stub types a union answer as a union of promises; awaited, it is the union.
        const answer: AdmitResult = await coordinator.admit({
          limit: RATE_LIMIT,
          windowMs: RATE_WINDOW_MS,
          now,
          keyId: k.principal.keyId,
          // A key just read from D1 is current; only a cached one is checked against the operator's changes.
          ...(cachedCopy ? { digest: k.digest } : {}),
          ...(claim ? { claim } : {}),
        });
        return answer;
      });
    const first = key;
    const admission = (async () => {
      let admitted = await admit(first, fromCache);
      if (admitted.stale) {
        keyCache.evict(hash);
        const fresh = await lookUp();
        c.set("principal", fresh.principal);
        admitted = await admit(fresh, false);
      }
      if (admitted.stale) throw new Error("a key read from D1 cannot be stale");
      const { decision } = admitted;
      if (!decision.allowed) {
        refusals.set(window, decision.resetAt);
        throw tooMany(decision.resetAt, now);
      }
      return { headers: rateHeaders(decision), claimed: admitted.claimed, decision };
    })();
    // Awaited below; until then a refusal is not an unhandled rejection.
    admission.catch(() => undefined);
    let held: HeldClaim | undefined;
    if (claim) {
      held = { key: claim.key, outcome: admission.then((a) => a.claimed), taken: false };
      held.outcome.catch(() => undefined);
      c.set("idempotency", held);
    }
    // The route's ability, against the key as the Coordinator confirmed it; and the claim, once taken.
    const admitted = async () => {
      await admission;
      const ability = c.var.ability;
      if (ability && !c.var.principal.abilities.includes(ability)) throw forbidden(ability);
      if (held?.taken) await waitForClaim(held);
    };
    c.set("admitted", admitted);
    c.set("rateWindow", async () => {
      const { decision } = await admission;
      return { limit: decision.limit, remaining: decision.remaining, resetAt: decision.resetAt };
    });
    c.var.meter.writeBarrier = admitted;
    await next();
    if (held && !held.taken) await releaseUntaken(c, held);
    // A refused request answers its refusal (401, 429), whatever the route answered; one whose key lost
    // the route's ability meanwhile, 403. Every answer carries the window's headers.
    const { headers } = await admission;
    const ability = c.var.ability;
    if (ability && !c.var.principal.abilities.includes(ability) && c.res.status !== 403)
      throw forbidden(ability, headers);
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  });

/** Routes that know their caller by the API key alone, without counting it (the MCP endpoint). */
export type KeyEnv = { Bindings: Env; Variables: DbEnv["Variables"] & { principal: Principal } };

/**
 * The key, and nothing else: who is calling, read from D1 (one indexed lookup, so a revoked or changed
 * key holds at once), refused like the gate refuses (401 `Unauthenticated.` / `Expired`), but not counted
 * against the rate window and not admitted anywhere. The MCP endpoint (src/mcp/) uses it: what it
 * answers by itself touches no data, and every tool call it makes goes through the whole gate.
 */
export const keyCheck = createMiddleware<KeyEnv>(async (c, next) => {
  const now = Date.now();
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw refusal("api", "missing");
  if (token.length > MAX_KEY_LENGTH) throw refusal("api", "invalid");
  const shard = shardOfKey(token);
  if (shard === null || shard >= c.var.shards.count) throw refusal("api", "invalid");
  const hash = await sha256Hex(token);
  if (unknownKeys.refuses(hash, now)) throw refusal("api", "invalid");
  const found = await loadKey(c.var.shards.at(shard), hash);
  if (!found) {
    unknownKeys.miss(hash, now);
    throw refusal("api", "invalid");
  }
  unknownKeys.forget(hash);
  const { expiresAt } = found.principal;
  if (expiresAt !== null && expiresAt.getTime() <= now) throw refusal("api", "expired");
  c.set("principal", found.principal);
  await next();
});
