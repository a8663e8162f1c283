import { createMiddleware } from "hono/factory";
import type { Ability } from "../db/enums";
import type { ApiEnv } from "./env";
import { forbidden } from "./errors";

/** 403 unless the key carries the ability the endpoint is listed with. */
export const requireAbility = (ability: Ability) =>
  createMiddleware<ApiEnv>(async (c, next) => {
    if (!c.var.principal.abilities.includes(ability)) throw forbidden();
    await next();
  });
