import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

// The flow rules of the Coordinator, driven with explicit clock values through its RPC methods.
const flow = {
  platform: "twitter",
  callbackUrl: "https://app.example.test/cb",
  state: "app-state",
  keyId: 7,
  mode: "live" as const,
};
const opening = {
  browserHash: "b".repeat(64),
  stateSecretHash: "s".repeat(43),
  codeVerifier: "v".repeat(43),
  redirectUri: "https://api.example.test/api/oauth/delegate/callback",
};
const target = { platform: "twitter", callbackUrl: flow.callbackUrl, state: flow.state, mode: "live" };
const fresh = () => env.COORDINATOR.getByName(`delegation:unit-${crypto.randomUUID()}`);
const T0 = 1_800_000_000_000;
const MIN = 60_000;

describe("Coordinator delegation flows", () => {
  it("opens until just before creation + 15 min, and not at 15 min", async () => {
    const early = fresh();
    await early.createDelegation(flow, T0);
    expect(await early.openDelegation(opening, T0 + 15 * MIN - 1)).toEqual({ kind: "ok", target });

    const late = fresh();
    await late.createDelegation(flow, T0);
    expect(await late.openDelegation(opening, T0 + 15 * MIN)).toEqual({ kind: "expired", target });
    // Expired for good, even if a clock went backwards.
    expect(await late.openDelegation(opening, T0)).toEqual({ kind: "expired", target });
  });

  it("knows nothing of a flow it never created", async () => {
    const gate = fresh();
    expect(await gate.openDelegation(opening, T0)).toEqual({ kind: "unknown" });
    expect(
      await gate.finishDelegation(
        { stateSecretHash: opening.stateSecretHash, browserHash: opening.browserHash },
        T0,
      ),
    ).toEqual({
      kind: "unknown",
    });
  });

  it("finishes once, from the browser that opened it, within 15 min of opening", async () => {
    const gate = fresh();
    await gate.createDelegation(flow, T0);
    await gate.openDelegation(opening, T0 + 14 * MIN);
    const finishing = { stateSecretHash: opening.stateSecretHash, browserHash: opening.browserHash };
    expect(
      await gate.finishDelegation({ ...finishing, stateSecretHash: "x".repeat(43) }, T0 + 15 * MIN),
    ).toEqual({
      kind: "unknown",
    });
    expect(await gate.finishDelegation({ ...finishing, browserHash: null }, T0 + 15 * MIN)).toEqual({
      kind: "wrong_browser",
      target,
    });
    expect(await gate.finishDelegation(finishing, T0 + 28 * MIN)).toEqual({
      kind: "ok",
      target,
      keyId: 7,
      codeVerifier: opening.codeVerifier,
      redirectUri: opening.redirectUri,
    });
    expect(await gate.finishDelegation(finishing, T0 + 28 * MIN)).toEqual({ kind: "used", target });
    expect(await gate.openDelegation(opening, T0 + 28 * MIN)).toEqual({ kind: "expired", target });
  });

  it("expires an opened flow whose callback comes 15 min after opening", async () => {
    const gate = fresh();
    await gate.createDelegation(flow, T0);
    await gate.openDelegation(opening, T0);
    const finishing = { stateSecretHash: opening.stateSecretHash, browserHash: opening.browserHash };
    expect(await gate.finishDelegation(finishing, T0 + 15 * MIN)).toEqual({ kind: "expired", target });
    expect(await gate.finishDelegation(finishing, T0 + 15 * MIN)).toEqual({ kind: "expired", target });
  });

  it("alarms: a live flow expires, a finished one is deleted", async () => {
    const gate = fresh();
    await gate.createDelegation(flow, Date.now());
    await gate.openDelegation(opening, Date.now());
    const opened = await runInDurableObject(gate, (_, ctx) => ctx.storage.getAlarm());
    expect(opened).toBeGreaterThan(Date.now() + 14 * MIN);
    expect(await runDurableObjectAlarm(gate)).toBe(true);
    const finishing = { stateSecretHash: opening.stateSecretHash, browserHash: opening.browserHash };
    expect(await gate.finishDelegation(finishing)).toEqual({ kind: "expired", target });
    const retained = await runInDurableObject(gate, (_, ctx) => ctx.storage.getAlarm());
    expect(retained).toBeGreaterThan(Date.now() + 23 * 60 * MIN);
    expect(await runDurableObjectAlarm(gate)).toBe(true);
    expect(await gate.openDelegation(opening)).toEqual({ kind: "unknown" });
  });

  it("leaves the rate window alone", async () => {
    const gate = fresh();
    await gate.createDelegation(flow, T0);
    expect((await gate.hit(2, MIN, T0)).remaining).toBe(1);
    expect(await gate.openDelegation(opening, T0)).toEqual({ kind: "ok", target });
  });
});
