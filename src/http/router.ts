// One factory for every router, so each carries the app's Env types.
import { Hono } from "hono";
import type { AppEnv } from "./types";

export const createRouter = () => new Hono<AppEnv>();
