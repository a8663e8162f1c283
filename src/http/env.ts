// The router environments. Each says which request variables are set on its routes, so that reading
// `c.var.db` where no database was attached, or `c.var.principal` before authentication, fails to
// compile.
import type { BeginResult } from "../coordinator/names";
import type { Database } from "../db/client";
import type { Ability, Mode } from "../db/enums";
import type { ShardDatabases } from "../db/shards";
import type { ErrorStyle } from "./errors";
import type { Meter } from "./meter";

export type Principal = {
  userId: number;
  /** The key's mode: it sees only workspaces of this mode (src/db/tenancy.ts). */
  mode: Mode;
  keyId: number;
  abilities: Ability[];
  expiresAt: Date | null;
  signingSecretEnc: string | null;
  /** Origins this key's delegation callbacks may use (none registered: any). */
  callbackOrigins: string[] | null;
};

type BaseVariables = { errorStyle?: ErrorStyle };

/** Routes with nothing attached (the sandbox platform, the API reference). */
export type BareEnv = { Bindings: Env; Variables: BaseVariables };

/**
 * Routes with the metered databases (the operator API, media links, the delegation browser pages):
 * `shards` opens the shard a path or body id names (src/db/shards.ts).
 */
export type DbEnv = { Bindings: Env; Variables: BaseVariables & { shards: ShardDatabases; meter: Meter } };

/**
 * An Idempotency-Key the gate claimed in its admission call (src/http/idempotency.ts): the claim's
 * outcome (undefined when the request was refused), and whether the route's idempotency middleware took
 * it over; the gate releases a claim nobody took.
 */
export type HeldClaim = { key: string; outcome: Promise<BeginResult | undefined>; taken: boolean };

/**
 * Routes behind an API key: `db`, the database of the key's shard, the key's principal, and `admitted`, which settles when the
 * gate's Coordinator call has admitted the request (src/http/gate.ts): it rejects with the 401, 403 or
 * 429 the request gets instead (and, once `idempotency` is taken, unless its claim proceeded). `ability` is the one the route requires.
 */
export type ApiEnv = {
  Bindings: Env;
  Variables: DbEnv["Variables"] & {
    db: Database;
    principal: Principal;
    admitted: () => Promise<void>;
    /** This request's place in the user's rate window, once admitted (GET /api/v1/me reports it). */
    rateWindow: () => Promise<{ limit: number; remaining: number; resetAt: number }>;
    ability?: Ability;
    idempotency?: HeldClaim;
  };
};
