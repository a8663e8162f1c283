// What the steps of an OAuth flow are given instead of a request: plain values, so they run (and are
// tested) without a router, and answer plain outcomes (outcome.ts) a thin route turns into a response.
import type { ShardDatabases } from "../db/shards";

/** Runs one Durable Object call, counted and timed by the request's meter (`meter.gate`). */
export type Metered = <T>(work: () => Promise<T>) => Promise<T>;

/** The worker's env, the shards (a key and an account live on the shard their id names), the meter. */
export type FlowContext = {
  env: Env;
  shards: ShardDatabases;
  metered: Metered;
  /** The service's public origin: the callback URL the platform returns to, the cookie's Secure flag. */
  origin: string;
};
