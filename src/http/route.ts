// One way to declare a route: `apiRoutes(ability)` gives a router's declarer for /api/v1 routes (the
// ability named once per router), `publicRoute()` one for routes outside the API key gate. Each declares
// a route with its request and response schemas, so the same zod schemas validate the request, type the
// handler's answer and write the OpenAPI document.
import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Ability } from "../db/enums";
import { awaitAdmission, requireAbility } from "./abilities";
import { jsonBodyLimit } from "./body-limit";
import { documentIdempotency, idempotency } from "./idempotency";
import { type ErrorAudience, type ErrorStatus, errorResponses, withSharedHeaders } from "./openapi";

type RouteSpec = Omit<RouteConfig, "middleware" | "security"> & {
  /** Statuses this route can answer besides its successes and the ones every route of its kind has. */
  errors?: readonly ErrorStatus[];
  /** Whose error wording and bodies: `coded` carries a `code` (the delegation session endpoint). */
  audience?: ErrorAudience;
  /**
   * A write route whose reads start alongside the gate's Coordinator call, saving a sequential hop:
   * its D1 writes wait for the admission by themselves (the metered database holds them), and its
   * handler awaits `c.var.admitted()` before any other effect (a Durable Object, a queue, R2, a fetch).
   * Other write routes wait for the admission before their handler starts.
   */
  earlyReads?: boolean;
  /**
   * A route that creates something: it honours an `Idempotency-Key` header (src/http/idempotency.ts),
   * which the document lists with the route's 409 and 422. Only requests that send the header pay for it
   * (the claim rides on the gate's admission; keeping the answer is one more call).
   */
  idempotent?: boolean;
};

/**
 * Every declaration names its operation: the name in the document and in every client generated from it,
 * camelCase, unique and stable (renaming one renames a method in every integrator's SDK). test/docs
 * asserts all are present and unique.
 */
type Named = { operationId: string };

/** `createPost` → `CreatePostRequest`. */
const requestName = (operationId: string) => `${operationId[0]!.toUpperCase()}${operationId.slice(1)}Request`;

/**
 * The route with its request body named in the document (`CreatePostRequest`), unless its schema already
 * has a name: generators then give the body a type of its own rather than an inline one.
 */
function withNamedBody<R extends RouteSpec & Named>(spec: R): R {
  const body = spec.request?.body;
  if (!body?.content) return spec;
  const content = Object.fromEntries(
    Object.entries(body.content).map(([type, media]) => {
      const schema = (media as { schema?: z.ZodType }).schema;
      const named = !(schema instanceof z.ZodType) || schema.meta()?.id !== undefined;
      return [type, named ? media : { ...media, schema: schema.meta({ id: requestName(spec.operationId) }) }];
    }),
  );
  return { ...spec, request: { ...spec.request, body: { ...body, content } } };
}

/** The statuses every route of a kind can answer. */
const API_ERRORS = [401, 403, 429] as const;
/** Whether the route takes a JSON body: then it is capped (src/http/body-limit.ts) and may answer 413. */
const takesJson = (spec: RouteSpec) => spec.request?.body?.content?.["application/json"] !== undefined;
const bodyErrors = (spec: RouteSpec) => [
  ...(spec.request?.body ? ([400, 415, 422] as const) : []),
  ...(takesJson(spec) ? ([413] as const) : []),
];
const paramErrors = (spec: RouteSpec) =>
  spec.request?.params || spec.request?.query ? ([422] as const) : [];

/** An /api/v1 route: bearer API key, rate limit, the ability it needs (`null`: any key may call it). */
function apiRoute<const R extends RouteSpec & Named>(ability: Ability | null, spec: R) {
  const {
    errors = [],
    audience: _audience,
    earlyReads = false,
    idempotent = false,
    ...declared
  } = withNamedBody(spec);
  const route = idempotent ? documentIdempotency(declared) : declared;
  const safe = route.method === "get" || route.method === "head";
  return createRoute({
    ...route,
    description: `${route.description ? `${route.description}\n\n` : ""}${ability ? `Requires an API key with the \`${ability}\` ability.` : "Any API key may call it, whatever its abilities."}`,
    security: [{ apiKey: [] }],
    ...(ability ? { "x-required-ability": ability } : {}),
    middleware: [
      ...(ability ? [requireAbility(ability)] : []),
      // Read (capped) alongside the gate's Coordinator call, before the idempotency fingerprint.
      ...(takesJson(spec) ? [jsonBodyLimit] : []),
      // Before awaitAdmission: it takes the claim the gate made, which admission then includes.
      ...(idempotent ? [idempotency] : []),
      ...(safe || earlyReads ? [] : [awaitAdmission]),
    ] as [ReturnType<typeof requireAbility>],
    responses: withSharedHeaders(
      {
        ...route.responses,
        ...errorResponses([
          ...(ability ? API_ERRORS : API_ERRORS.filter((status) => status !== 403)),
          ...bodyErrors(spec),
          ...paramErrors(spec),
          ...errors,
          ...(idempotent ? ([409, 422] as const) : []),
        ]),
      },
      true,
    ),
  } as unknown as R & { middleware: [ReturnType<typeof requireAbility>] });
}

/** A route outside the API key gate (operator API, media links, delegation session), declared alike. */
export function publicRoute<const R extends RouteSpec>(
  spec: R & Named & { security?: RouteConfig["security"] },
) {
  const {
    errors = [],
    audience,
    earlyReads: _earlyReads,
    idempotent: _idempotent,
    ...route
  } = withNamedBody(spec);
  const own = (route as { middleware?: MiddlewareHandler | MiddlewareHandler[] }).middleware;
  const middleware = own === undefined ? [] : [own].flat();
  // The cap after the route's own checks (a gate, the operator token), before the first middleware
  // that reads the body (the idempotency fingerprint), if any.
  const reads = middleware.indexOf(idempotency);
  const at = reads === -1 ? middleware.length : reads;
  return createRoute({
    ...route,
    ...(takesJson(spec)
      ? { middleware: [...middleware.slice(0, at), jsonBodyLimit, ...middleware.slice(at)] }
      : {}),
    // The delegation session endpoint (`coded`) is behind the API key gate: its answers are counted.
    responses: withSharedHeaders(
      {
        ...route.responses,
        ...errorResponses([...bodyErrors(spec), ...paramErrors(spec), ...errors], audience),
      },
      audience === "coded",
    ),
  } as unknown as R);
}

/**
 * The declarer of a router's /api/v1 routes, all needing `ability`:
 * `const route = apiRoutes("labels"); router.openapi(route({ method: "get", … }), handler)`.
 */
export const apiRoutes =
  (ability: Ability | null) =>
  <const R extends RouteSpec>(spec: R & Named) =>
    apiRoute(ability, spec);
