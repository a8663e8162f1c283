import type { DrizzleD1Database } from "drizzle-orm/d1";
import type * as schema from "../db/schema";
import type { Ability } from "../db/schema";
import type { Meter } from "./meter";

export type Database = DrizzleD1Database<typeof schema>;

export type Principal = {
  userId: number;
  keyId: number;
  abilities: Ability[];
  expiresAt: Date | null;
  signingSecretEnc: string | null;
};

export type AppEnv = {
  Bindings: Env;
  Variables: {
    db: Database;
    meter: Meter;
    principal: Principal;
  };
};
