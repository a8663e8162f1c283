import { drizzle } from "drizzle-orm/d1";
import type { Database } from "../http/types";
import * as schema from "./schema";

export const createDb = (d1: D1Database): Database => drizzle(d1, { schema });
