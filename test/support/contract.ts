// The route-contract suite every /api/v1 route, the delegation session endpoint and the operator API
// pass (after unkey's common-tests): authentication, abilities, the rate limit, malformed, mistyped and
// oversized bodies, other tenants' ids, the Server-Timing budget, and every answer checked against the
// response schema the OpenAPI document declares for it, so the document cannot drift from the code.
// It runs once per mode (test/contract.test.ts): a test key's tenant (a test workspace) must pass what a
// live one does, and on every `{id}` route the same user's key of the other mode gets the 404 of an absent
// record. What is refused before any data is read (no key, the rate window, the body's framing, an
// expired key, a missing ability) does not depend on the mode and runs in the live pass only.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it as vitestIt } from "vitest";
import type { z } from "zod";
import { app } from "../../src/app";
import type { Coordinator } from "../../src/coordinator";
import type { Mode } from "../../src/db/enums";
import { JSON_BODY_MAX_BYTES } from "../../src/http/body-limit";
import { ADMIN_TOKEN, type Answer, call, serverTiming } from "./client";
import { ALL_ABILITIES, createKey, createKeyIn, createTenant, createUser } from "./seed";

export type Tenant = Awaited<ReturnType<typeof createTenant>>;
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type ContractRequest = { path: string; body?: unknown; headers?: Record<string, string> };

export type RouteContract = {
  method: Method;
  /** The path as the OpenAPI document writes it: `/api/v1/labels/{id}`. */
  route: string;
  /** `api`: an API key with `ability` (null: any key); `admin`: the operator token. */
  auth: "api" | "admin";
  ability?: string | null;
  /** The answer's style of error body: `{message}` or the delegation endpoint's `{code, message}`. */
  coded?: boolean;
  /** A valid request by `tenant`, built fresh for each check. */
  request: (tenant: Tenant) => Promise<ContractRequest> | ContractRequest;
  /** Its success status. */
  status: number;
  /** The success's media type when it is not JSON (`text/csv`): checked instead of the JSON schema. */
  answers?: string;
  /** A request by an attacker naming `victim`'s record; it must be a 404 that changes nothing. */
  foreign?: (victim: Tenant) => Promise<ContractRequest> | ContractRequest;
  /**
   * Whether the route takes a JSON body (then malformed JSON is a 400, another type a 415, and a body
   * over 1 MiB a 413).
   */
  jsonBody?: boolean;
  /**
   * The most a success may spend once the key is known to the isolate (a key's first request adds one
   * lookup: test/http/gate.test.ts): D1 round trips, Durable Object calls, and sequential hops (remote
   * calls made one after another; the Coordinator's overlaps a route's reads).
   */
  budget: { db: number; gate: number; hops: number };
  /** Prepares the tenant before each check (accounts, subscriptions, signing secrets, …). */
  setup?: (tenant: Tenant) => Promise<void>;
};

type RouteDefinition = {
  type: "route";
  route: {
    method: string;
    path: string;
    responses: Record<string, { content?: Record<string, { schema?: z.ZodType }> }>;
    request?: { body?: { content?: Record<string, { schema?: z.ZodType }> } };
  };
};

const definitions = () =>
  (app.openAPIRegistry.definitions as unknown as Array<{ type: string }>).filter(
    (d): d is RouteDefinition => d.type === "route",
  );

const definitionOf = (method: string, route: string) =>
  definitions().find((d) => d.route.method === method.toLowerCase() && d.route.path === route);

/** The zod schema the OpenAPI document declares for (method, route, status). */
export function documentedSchema(method: string, route: string, status: number): z.ZodType {
  const definition = definitionOf(method, route);
  if (!definition) throw new Error(`${method} ${route} is not in the OpenAPI document`);
  const schema = definition.route.responses[String(status)]?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${route} does not document a JSON ${status} answer`);
  return schema;
}

/** Asserts that an answer is one the document declares, body included. */
export function expectDocumented(method: string, route: string, answer: Answer) {
  const parsed = documentedSchema(method, route, answer.status).safeParse(answer.body);
  if (!parsed.success) {
    throw new Error(
      `${method} ${route} answered ${answer.status} with a body its schema refuses: ${JSON.stringify(parsed.error.issues, null, 2)}\n${JSON.stringify(answer.body, null, 2).slice(0, 2000)}`,
    );
  }
}

const send = (contract: RouteContract, request: ContractRequest, key: string | null, extra: object = {}) =>
  call(contract.method, request.path, {
    key,
    body: request.body,
    headers: request.headers,
    ...extra,
  });

const keyOf = (contract: RouteContract, caller: { key: string }) =>
  contract.auth === "admin" ? ADMIN_TOKEN : caller.key;

/** A tenant in `shard` (src/db/shards.ts) and `mode` (its workspace's and key's), with the contract's setup done. */
async function preparedIn(contract: RouteContract, shard: number, mode: Mode) {
  const tenant = await createTenant(mode === "test" ? { mode } : {}, shard);
  if (mode === "test") {
    // createTenant's key is live: the tenant acts with a test key instead.
    const { id, key } = await createKeyIn(tenant.user.id, mode);
    Object.assign(tenant, { key, keyId: id });
  }
  await contract.setup?.(tenant);
  return tenant;
}

/** Spends the user's whole rate window in the Coordinator, as 60 requests would: 60 counts in one call. */
async function exhaustRateLimit(userId: number) {
  await runInDurableObject(env.COORDINATOR.getByName(`user:${userId}`), (coordinator: Coordinator) => {
    for (let i = 0; i < 60; i++) coordinator.hit(60, 60_000);
  });
}

/**
 * A user of `shard` with a key and no workspace: a caller whose requests are refused before any data is
 * read (a foreign check's attacker, the 429's spent user) needs nothing more.
 */
async function bareUser(shard: number) {
  const { id } = await createUser("Caller", shard);
  return { id, key: (await createKey(id)).key };
}

/**
 * The contract for a tenant of `shard` (src/db/shards.ts) in `mode`. `keyRules` (an expired key, a key
 * without the route's ability) defaults to the live pass: the gate refuses both before the route reads
 * the tenant's shard, so shard 1's pass runs them on one route per ability (contract-shard-1.test.ts).
 */
export function routeContract(
  contract: RouteContract,
  shard = 0,
  mode: Mode = "live",
  options: { keyRules?: boolean } = {},
) {
  const { method, route } = contract;
  const prepared = (c: RouteContract, inShard = shard) => preparedIn(c, inShard, mode);
  const unauthenticated = contract.coded ? { missing: "missing_api_key", invalid: "invalid_api_key" } : null;
  // The checks refused before the route reads or writes anything of the tenant (401, 403, the body's
  // framing) and the foreign check's attacker share one tenant per route: what they send changes nothing
  // of it, and a tenant is five records. The success, the 429 and the victim get their own.
  let shared: Promise<Tenant> | undefined;
  const sharedTenant = () => {
    shared ??= prepared(contract);
    return shared;
  };
  // And one valid request of it: every refusal before the data is read is sent the same request
  // (building one can cost a post or an upload).
  let sharedRequest: Promise<ContractRequest> | undefined;
  const refusedRequest = () => {
    sharedRequest ??= sharedTenant().then((tenant) => contract.request(tenant));
    return sharedRequest;
  };

  // The checks run side by side (up to Vitest's maxConcurrency): each makes its own tenants and reads only
  // its own answers, so they overlap their waits on the worker instead of queueing behind each other.
  const title = `${method} ${route}: route contract${shard ? ` in shard ${shard}` : ""}`;
  // The live pass groups each route's checks (run side by side); the test pass is a few checks per route,
  // registered flat so that its caller runs every route's side by side (test/contract.test.ts).
  const flat = mode === "test";
  const it = flat ? (name: string, fn: () => Promise<void>) => vitestIt(`${title}: ${name}`, fn) : vitestIt;
  (flat ? (fn: () => void) => fn() : (fn: () => void) => describe.concurrent(title, fn))(() => {
    // The test pass asks its tenant's record with the same user's live key first (a 404 that changes
    // nothing), sparing a tenant per route; the live pass does the reverse in its 404 check below.
    const crossFirst = flat && contract.foreign !== undefined;
    it(`answers ${contract.status} with its documented schema, within its budget${crossFirst ? ", and 404 to the same user's live key" : ""}`, async () => {
      const tenant = await prepared(contract);
      const request = await contract.request(tenant);
      const crossed = crossFirst
        ? Promise.all([contract.foreign!(tenant), createKeyIn(tenant.user.id, "live")]).then(
            ([foreign, live]) => send(contract, foreign, live.key),
          )
        : null;
      // The key's first request looks it up in D1; the budget is what every later one spends.
      if (contract.auth === "api") await call("GET", "/api/v1/workspaces", { key: tenant.key });
      if (crossed) {
        const refused = await crossed;
        expect(refused.status, JSON.stringify(refused.body)).toBe(404);
        expectDocumented(method, route, refused);
      }
      const res = await send(contract, request, keyOf(contract, tenant));
      expect(res.status, JSON.stringify(res.body)).toBe(contract.status);
      if (contract.answers) expect(res.headers.get("content-type")).toContain(contract.answers);
      else expectDocumented(method, route, res);
      const spent = serverTiming(res.headers);
      expect(spent.dbTrips).toBeLessThanOrEqual(contract.budget.db);
      expect(spent.gateCalls).toBeLessThanOrEqual(contract.budget.gate);
      expect(spent.hops).toBeLessThanOrEqual(contract.budget.hops);
    });

    // Refusals that come before the tenant's data is read (no key or an unknown one, the rate window, the
    // body's framing) do not depend on where the tenant lives: shard 0's run checks them for every route.
    const beforeData = shard === 0 && mode === "live";
    // An expired key and a missing ability are the key's alone: one pass per shard checks them.
    const keyRules = options.keyRules ?? mode === "live";

    if (beforeData)
      it("answers 401 without a key and with an unknown one", async () => {
        const request = await refusedRequest();
        for (const [key, code] of [
          [null, unauthenticated?.missing],
          [contract.auth === "admin" ? "wrong-admin-token" : "spk_not-a-real-key", unauthenticated?.invalid],
        ] as const) {
          const res = await send(contract, request, key);
          expect(res.status).toBe(401);
          expectDocumented(method, route, res);
          if (code) expect(res.body.code).toBe(code);
          else expect(res.body).toEqual({ message: "Unauthenticated." });
        }
      });

    if (contract.auth === "api" && keyRules) {
      it("answers 401 for an expired key", async () => {
        const tenant = await sharedTenant();
        const expired = await createKey(
          tenant.user.id,
          ALL_ABILITIES,
          new Date(Date.now() - 1000).toISOString(),
        );
        const res = await send(contract, await refusedRequest(), expired.key);
        expect(res.status).toBe(401);
        expectDocumented(method, route, res);
        if (unauthenticated) expect(res.body.code).toBe(unauthenticated.invalid);
        else expect(res.body).toEqual({ message: "Expired" });
      });

      if (beforeData)
        it("answers 429 with its headers once the user's minute is spent", async () => {
          // A user of its own, whose minute is spent, sends the shared tenant's request: the window is
          // the user's, and nothing of the tenant is read.
          const [spent, request] = await Promise.all([bareUser(shard), refusedRequest()]);
          await exhaustRateLimit(spent.id);
          const res = await send(contract, request, spent.key);
          expect(res.status).toBe(429);
          expectDocumented(method, route, res);
          expect(res.body.message).toBe("Too Many Attempts.");
          expect(res.headers.get("x-ratelimit-limit")).toBe("60");
          expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
          expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
          expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000);
        });
    }

    if (contract.auth === "api" && contract.ability && keyRules) {
      const ability = contract.ability;
      it(`answers 403 for a key without the ${ability} ability`, async () => {
        const tenant = await sharedTenant();
        const others = ALL_ABILITIES.filter((a) => a !== ability);
        const { key } = await createKey(tenant.user.id, others);
        const res = await send(contract, await refusedRequest(), key);
        expect(res.status).toBe(403);
        expectDocumented(method, route, res);
        expect(res.body).toEqual({ message: "Forbidden - Insufficient permissions", ability });
      });
    }

    if (contract.jsonBody && beforeData) {
      it("answers 400 for malformed JSON or a body that is not an object, 415 for another type", async () => {
        const tenant = await sharedTenant();
        const { path } = await refusedRequest();
        const key = keyOf(contract, tenant);
        for (const [raw, message] of [
          ["{not json", "Malformed JSON in request body."],
          ["[1,2]", "The request body must be a JSON object."],
        ]) {
          const res = await call(method, path, {
            key,
            rawBody: raw,
            headers: { "content-type": "application/json" },
          });
          expect(res.status).toBe(400);
          expectDocumented(method, route, res);
          expect(res.body.message).toBe(message);
        }
        const typed = await call(method, path, {
          key,
          rawBody: "name=x",
          headers: { "content-type": "text/plain" },
        });
        expect(typed.status).toBe(415);
        expectDocumented(method, route, typed);
        expect(typed.body.message).toBe("The request body must be sent as application/json.");
      });

      it("answers 413 for a body over 1 MiB, before reading it", async () => {
        const tenant = await sharedTenant();
        const { path } = await refusedRequest();
        const padding = "x".repeat(JSON_BODY_MAX_BYTES);
        const res = await call(method, path, {
          key: keyOf(contract, tenant),
          rawBody: JSON.stringify({ name: padding }),
          headers: { "content-type": "application/json" },
        });
        expect(res.status).toBe(413);
        expectDocumented(method, route, res);
        expect(res.body).toEqual({ message: "The request body is too large." });
      });
    }

    if (contract.foreign && !crossFirst) {
      const foreign = contract.foreign;
      const api = contract.auth === "api";
      it(`answers 404 for another tenant's record${api ? ", and to the same user's test key" : ""}`, async () => {
        const victim = await prepared(contract);
        const request = await foreign(victim);
        // Shard 0's victim meets an attacker of its own shard (test/contract.test.ts) and shard 1's one of
        // shard 0: ids of another shard are not found either. The test key is the very same user's: only
        // the mode keeps the record apart. Both are made and asked side by side.
        const strangers = [
          (shard === 0 ? sharedTenant() : bareUser(0)).then((attacker) => keyOf(contract, attacker)),
          ...(api ? [createKeyIn(victim.user.id, "test").then((other) => other.key)] : []),
        ];
        const answers = await Promise.all(strangers.map(async (key) => send(contract, request, await key)));
        for (const res of answers) {
          expect(res.status, JSON.stringify(res.body)).toBe(404);
          expectDocumented(method, route, res);
        }
      });
    }
  });
}

/** Every route the document declares, as "METHOD path", for completeness checks. */
export const documentedRoutes = () =>
  definitions().map((d) => `${d.route.method.toUpperCase()} ${d.route.path}`);

/** The top-level fields of the JSON body that (method, route) declares; none when it takes no object. */
export function documentedBodyFields(method: string, route: string): string[] {
  const schema = definitionOf(method, route)?.route.request?.body?.content?.["application/json"]?.schema;
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}
