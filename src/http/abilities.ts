import { createMiddleware } from "hono/factory";
import type { Ability } from "../db/schema";
import { forbidden } from "./errors";
import type { AppEnv } from "./types";

/** 403 unless the key carries the ability the endpoint is listed with. */
export const requireAbility = (ability: Ability) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!c.var.principal.abilities.includes(ability)) throw forbidden();
    await next();
  });
