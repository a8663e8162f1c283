// One factory for every router: `createRouter<Env>()` gives an OpenAPIHono whose validation failures
// throw into the app's one error renderer. How a route is declared (its schemas, security, ability) is
// route.ts; this file imports nothing but the errors, so any module may build a router.
import { type Hook, OpenAPIHono } from "@hono/zod-openapi";
import type { Env } from "hono";
import { badRequest, invalidInput } from "./errors";

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Every validation failure: a JSON body that is not an object is a 400, field errors a Laravel 422.
 * (A body sent with another content type never gets here: the route's media-type gate answers 415.)
 */
export function validationHook(result: Parameters<Hook<unknown, Env, string, undefined>>[0]): undefined {
  const data = (result as { data?: unknown }).data;
  if (result.target === "json" && !isPlainObject(data))
    throw badRequest("The request body must be a JSON object.");
  if (!result.success) throw invalidInput(result.error, data);
  return undefined;
}

export const createRouter = <E extends Env>() =>
  new OpenAPIHono<E>({ defaultHook: (result) => validationHook(result) });
