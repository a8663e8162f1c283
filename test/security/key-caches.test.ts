// The isolate's key caches (src/http/key-cache.ts, src/http/gate.ts):
// - a cached key that had expired stayed `Expired` for up to 5 minutes after the operator extended it,
//   though every other operator change held from the next request; now expiry is checked like them;
// - every request with an unknown key cost a D1 lookup, counted by no limit; now a key D1 did not have
//   is refused without asking it again for a while.
import { describe, expect, it } from "vitest";
import { admin, call, serverTiming } from "../support/client";
import { ALL_ABILITIES, createKey, createTenant, inMinutes } from "../support/seed";

const forged = (prefix = "spk_") => {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `${prefix}${btoa(String.fromCharCode(...bytes))
    .replace(/[+/=]/g, "A")
    .slice(0, 43)}`;
};

describe("an expired key extended by the operator", () => {
  it("answers 200 on the very next request", async () => {
    const t = await createTenant();
    const { key, id } = await createKey(t.user.id, ALL_ABILITIES, new Date(Date.now() - 1000).toISOString());
    for (let i = 0; i < 2; i++) {
      const refused = await call("GET", "/api/v1/labels", { key });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ message: "Expired" });
    }
    const extended = await admin("PATCH", `/api-keys/${id}`, { expires_at: inMinutes(60) });
    expect(extended.status).toBe(200);
    const res = await call("GET", "/api/v1/labels", { key });
    expect(res.status).toBe(200);
  });

  it("a cached expired key still unchanged is refused without a D1 lookup", async () => {
    const t = await createTenant();
    const { key } = await createKey(t.user.id, ALL_ABILITIES, new Date(Date.now() - 1000).toISOString());
    expect((await call("GET", "/api/v1/labels", { key })).status).toBe(401);
    const again = await call("GET", "/api/v1/labels", { key });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ message: "Expired" });
    expect(serverTiming(again.headers).dbTrips).toBe(0);
  });
});

describe("an unknown key", () => {
  for (const prefix of ["spk_", "spk1_"]) {
    it(`(${prefix}…) sent again is refused without a D1 lookup`, async () => {
      const key = forged(prefix);
      const first = await call("GET", "/api/v1/labels", { key });
      expect(first.status).toBe(401);
      expect(first.body).toEqual({ message: "Unauthenticated." });
      expect(serverTiming(first.headers).dbTrips).toBe(1);
      for (let i = 0; i < 3; i++) {
        const again = await call("GET", "/api/v1/labels", { key });
        expect(again.status).toBe(401);
        expect(again.body).toEqual({ message: "Unauthenticated." });
        expect(serverTiming(again.headers)).toMatchObject({ dbTrips: 0, gateCalls: 0 });
      }
    });
  }

  it("on the delegation session endpoint too, with its code", async () => {
    const key = forged();
    const body = { platform: "twitter", callback_url: "https://app.example.test/cb", state: "s" };
    const first = await call("POST", "/api/oauth/delegate/sessions", { key, body });
    expect(first.status).toBe(401);
    const again = await call("POST", "/api/oauth/delegate/sessions", { key, body });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe("invalid_api_key");
    expect(serverTiming(again.headers).dbTrips).toBe(0);
  });

  it("a revoked key is remembered as unknown once its Coordinator has said so", async () => {
    const t = await createTenant();
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(200);
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    expect((await call("GET", "/api/v1/labels", { key: t.key })).status).toBe(401);
    const again = await call("GET", "/api/v1/labels", { key: t.key });
    expect(again.status).toBe(401);
    expect(serverTiming(again.headers)).toMatchObject({ dbTrips: 0, gateCalls: 0 });
  });
});
