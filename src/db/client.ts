// The database handle every module receives: drizzle over D1. Queries name the schema's tables
// themselves; without drizzle's relational API (`db.query`, unused), a handle costs nothing to make,
// where passing the schema rebuilt its relations on every request and shard opened.
import { type DrizzleD1Database, drizzle } from "drizzle-orm/d1";

export type Database = DrizzleD1Database;

export const createDb = (d1: D1Database): Database => drizzle(d1);
