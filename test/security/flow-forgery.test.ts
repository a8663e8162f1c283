// Robustness, third round, item 2: strangers must not be able to make the service create Durable
// Objects. The flow id a browser sends back (the platform `state`, the channel page's `flow`) is signed
// like the authorize token, and a forged one is refused before any Coordinator is reached (no `gate`
// entry in Server-Timing); a Coordinator call that only reads creates no table.
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { choiceToken, newAuthorizeToken, platformState } from "../../src/coordinator/links";
import { flowCoordinator, userCoordinator } from "../../src/coordinator/names";
import { randomToken } from "../../src/lib/crypto";
import { createApp, createSession, runFlow } from "../delegation/support";
import { ORIGIN, serverTiming } from "../support/client";

const CALLBACK = `${ORIGIN}/api/oauth/delegate/callback`;
const NOT_A_CALLBACK = "This sign-in response does not belong to a connection request.";
const NOT_A_CHOICE = "This choice does not belong to a connection request, or it was already made.";

/** The instance's own tables (the runtime's `_cf_*` and SQLite's own left out). */
const tablesOf = (name: string) =>
  runInDurableObject(env.COORDINATOR.getByName(name), (_, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((row) => row.name)
      .filter((table) => !table.startsWith("_cf_") && !table.startsWith("sqlite_")),
  );

const callback = (state: string) =>
  exports.default.fetch(`${CALLBACK}?state=${state}&code=x`, { redirect: "manual" });
const pick = (flow: string) =>
  exports.default.fetch(CALLBACK, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ flow, channel: "1" }).toString(),
    redirect: "manual",
  });

async function expectRefusedUntouched(res: Response, page: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get("location")).toBeNull();
  expect(await res.text()).toContain(page);
  // No Coordinator call was made for this request.
  expect(serverTiming(res.headers).gateCalls).toBe(0);
}

describe("forged flow ids never reach a Durable Object", () => {
  it("refuses a callback whose state names an unsigned or wrongly signed flow, without any Coordinator call", async () => {
    const secret = randomToken(32);
    const id = randomToken(16);
    const { token: authorizeToken } = await newAuthorizeToken(env);
    for (const state of [
      // The format every state had before it was signed: any stranger could invent one.
      `${id}.${secret}`,
      // Signed-looking, with a MAC of nothing.
      `${id}${randomToken(16)}.${secret}`,
      // A genuine authorize token is signed for another use.
      `${authorizeToken}.${secret}`,
    ]) {
      await expectRefusedUntouched(await callback(state), NOT_A_CALLBACK);
    }
    expect(await tablesOf(flowCoordinator(id))).toEqual([]);
  });

  it("refuses a channel pick whose flow is unsigned or wrongly signed, as an unknown flow, without any Coordinator call", async () => {
    const id = randomToken(16);
    const { token: authorizeToken } = await newAuthorizeToken(env);
    for (const flow of [id, `${id}${randomToken(16)}`, authorizeToken])
      await expectRefusedUntouched(await pick(flow), NOT_A_CHOICE);
    expect(await tablesOf(flowCoordinator(id))).toEqual([]);
  });

  it("reads a genuinely signed flow that does not exist without creating anything in its instance", async () => {
    const id = randomToken(16);
    const res = await callback(await platformState(env, id, randomToken(32)));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(NOT_A_CALLBACK);
    expect(serverTiming(res.headers).gateCalls).toBe(1);
    const picked = await pick(await choiceToken(env, id));
    expect(picked.status).toBe(400);
    expect(await picked.text()).toContain(NOT_A_CHOICE);
    expect(await tablesOf(flowCoordinator(id))).toEqual([]);
  });

  it("still completes a genuine delegation", async () => {
    const { landed } = await runFlow(await createSession(await createApp()));
    expect(landed.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("Coordinator calls that only read create no table", () => {
  it("leaves a fresh flow instance empty after opening, finishing and picking an unknown flow", async () => {
    const name = flowCoordinator(randomToken(16));
    const stub = env.COORDINATOR.getByName(name);
    const opening = {
      browserHash: "b",
      stateSecretHash: "s",
      codeVerifier: "v",
      redirectUri: "https://x.test",
    };
    expect(await stub.openDelegation(opening)).toEqual({ kind: "unknown" });
    expect(await stub.finishDelegation({ stateSecretHash: "s", browserHash: "b" })).toEqual({
      kind: "unknown",
    });
    expect(await stub.takeConnectChoice("b")).toEqual({ kind: "unknown" });
    expect(await tablesOf(name)).toEqual([]);
  });

  it("leaves a fresh user instance empty after reading its key uses and finishing or releasing an unknown key", async () => {
    const name = userCoordinator({ userId: 3_000_000 + Math.floor(Math.random() * 1_000_000), mode: "live" });
    const stub = env.COORDINATOR.getByName(name);
    expect(await stub.lastKeyUses()).toEqual({});
    expect(await stub.finishIdempotent({ key: "k", token: "t", status: 201 })).toBe(false);
    expect(await stub.releaseIdempotent("k", "t")).toBe(false);
    expect(await tablesOf(name)).toEqual([]);
    // The first count creates what it writes to.
    await stub.hit(60, 60_000, Date.now(), 1);
    expect(await tablesOf(name)).toEqual(["key_use", "rate_window"]);
  });
});
