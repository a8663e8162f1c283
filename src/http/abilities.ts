import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Ability } from "../db/enums";
import type { ApiEnv } from "./env";
import { forbidden } from "./errors";

/**
 * 403 unless the key carries the ability the endpoint is listed with. The principal may come from this
 * isolate's key cache while the gate's Coordinator call is still running: a refusal waits for it (the
 * key may have just gained the ability), and the gate checks the ability again once it is admitted
 * (the key may have just lost it).
 */
export const requireAbility = (ability: Ability) =>
  createMiddleware<ApiEnv>(async (c, next) => {
    c.set("ability", ability);
    await requireAlso(c, ability);
    await next();
  });

/** 403 unless the key also carries `ability`, for one field of a route (a workspace's approval policy). */
export async function requireAlso(c: Context<ApiEnv>, ability: Ability): Promise<void> {
  if (!c.var.principal.abilities.includes(ability)) {
    await c.var.admitted();
    if (!c.var.principal.abilities.includes(ability)) throw forbidden(ability);
  }
}

/**
 * For routes that act outside D1 before they write there (R2, queues, Durable Objects, outbound
 * fetches): nothing runs until the gate has admitted the request. Routes whose only effects are D1
 * writes skip it (`earlyReads`): their reads overlap the gate's call, their writes wait for it.
 */
export const awaitAdmission = createMiddleware<ApiEnv>(async (c, next) => {
  await c.var.admitted();
  await next();
});
