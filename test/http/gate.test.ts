// The gate's fast path (src/http/gate.ts): an isolate that has seen a key skips its D1 lookup and runs
// the Coordinator call alongside the route's reads, yet every operator change to the key holds from the
// key's very next request, the 60-per-minute count stays exact, and nothing is written for a request
// the gate refuses.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, serverTiming } from "../support/client";
import { createKey, createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const labelsOf = async (t: Tenant) =>
  (
    await env.DB.prepare("SELECT count(*) AS n FROM labels WHERE workspace_id = ?")
      .bind(t.workspace.id)
      .first<{ n: number }>()
  )?.n ?? 0;

const createLabel = (t: Tenant, key = t.key) =>
  call("POST", "/api/v1/labels", {
    key,
    body: { workspace_id: t.workspace.id, name: "n", color: "#112233" },
  });

describe("the API gate", () => {
  it("a key's first request looks it up (two hops); later GETs overlap the Coordinator with their reads (one)", async () => {
    const t = await createTenant();
    const cold = serverTiming((await call("GET", "/api/v1/labels", { key: t.key })).headers);
    expect(cold).toMatchObject({ dbTrips: 2, gateCalls: 1, hops: 2 });
    const warm = serverTiming((await call("GET", "/api/v1/labels", { key: t.key })).headers);
    expect(warm).toMatchObject({ dbTrips: 1, gateCalls: 1, hops: 1 });
  });

  it("a warm create is two hops: the Coordinator alongside the reads, then the one write batch", async () => {
    const t = await createTenant();
    await call("GET", "/api/v1/workspaces", { key: t.key });
    const created = await createLabel(t);
    expect(created.status).toBe(201);
    expect(serverTiming(created.headers)).toMatchObject({ dbTrips: 2, gateCalls: 1, hops: 2 });
  });

  it("a revoked key is refused on its very next request, and its write never reaches D1", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    const refused = await createLabel(t);
    expect(refused.status).toBe(401);
    expect(await labelsOf(t)).toBe(0);
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(401);
  });

  it("a rolled key: the old one is refused at once, the new one works", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    const rolled = await admin("POST", `/api-keys/${t.keyId}/roll`);
    expect(rolled.status).toBe(201);
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(401);
    expect((await call("GET", "/api/v1/labels", { key: rolled.body.key })).status).toBe(200);
  });

  it("abilities taken away and given back hold from the next request, reads and writes alike", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    const narrowed = await admin("PATCH", `/api-keys/${t.keyId}`, { abilities: ["posts"] });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.abilities).toEqual(["posts"]);
    const read = await call("GET", "/api/v1/labels", { key: t.key });
    expect(read.status).toBe(403);
    expect(read.headers.get("x-ratelimit-limit")).toBe("60");
    expect((await createLabel(t)).status).toBe(403);
    expect(await labelsOf(t)).toBe(0);
    expect((await admin("PATCH", `/api-keys/${t.keyId}`, { abilities: ["labels"] })).status).toBe(200);
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    expect((await createLabel(t)).status).toBe(201);
  });

  it("an expiry moved into the past holds from the next request", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    const past = new Date(Date.now() - 1000).toISOString();
    expect((await admin("PATCH", `/api-keys/${t.keyId}`, { expires_at: past })).status).toBe(200);
    const res = await call("GET", "/api/v1/labels", { key: t.key });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Expired" });
  });

  it("keeps the count exact with a warm key: 100 parallel writes, exactly 60 created", async () => {
    const t = await createTenant();
    await call("GET", "/api/v1/workspaces", { key: t.key });
    const answers = await Promise.all(Array.from({ length: 99 }, () => createLabel(t)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(59);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect(await labelsOf(t)).toBe(59);
  });

  it("answers a refused window from the isolate until it closes: no remote call", async () => {
    const t = await createTenant();
    const coordinator = env.COORDINATOR.getByName(`user:${t.user.id}`);
    await call("GET", "/api/v1/workspaces", { key: t.key });
    for (let i = 0; i < 59; i++) await coordinator.hit(60, 60_000);
    const first = await call("GET", "/api/v1/labels", { key: t.key });
    expect(first.status).toBe(429);
    const again = await call("GET", "/api/v1/labels", { key: t.key });
    expect(again.status).toBe(429);
    expect(serverTiming(again.headers)).toMatchObject({ dbTrips: 0, gateCalls: 0, hops: 0 });
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("refuses an invalid PATCH body and an unknown key", async () => {
    const t = await createTenant();
    expect((await admin("PATCH", `/api-keys/${t.keyId}`, {})).status).toBe(422);
    expect((await admin("PATCH", `/api-keys/${t.keyId}`, { abilities: ["nope"] })).status).toBe(422);
    expect((await admin("PATCH", "/api-keys/999999999", { abilities: ["posts"] })).status).toBe(404);
  });

  it("another key of the same user is not disturbed by a change to the first", async () => {
    const t = await createTenant();
    const second = await createKey(t.user.id, ["labels"]);
    expect((await call("GET", "/api/v1/labels", { key: second.key })).status).toBe(200);
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    const res = await call("GET", "/api/v1/labels", { key: second.key });
    expect(res.status).toBe(200);
    expect(serverTiming(res.headers).hops).toBe(1);
  });
});
