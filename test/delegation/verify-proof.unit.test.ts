import { describe, expect, it, vi } from "vitest";
import { proofMessage, verifyProof } from "../../src/verify-proof";
import source from "../../src/verify-proof.ts?raw";
import { hmacHex } from "../support/hmac";

const SECRET = "sps_unit-test-signing-secret";
const NOW = 1_800_000_000_000;

async function proofQuery(overrides: Record<string, string> = {}, secret = SECRET) {
  const fields = {
    platform: "twitter",
    platform_id: "1234567890",
    handle: "Ada, Co + Zoë ✓",
    state: "app-state-1",
    expires: String(NOW / 1000 + 300),
    ...overrides,
  };
  const message = `platform=${fields.platform}&platform_id=${fields.platform_id}&handle=${fields.handle}&state=${fields.state}&expires=${fields.expires}`;
  return new URLSearchParams({ ...fields, sig: await hmacHex(secret, message) });
}

const accept = () => vi.fn((_state: string) => true);

describe("verifyProof", () => {
  it("accepts a genuine proof and consumes its state once", async () => {
    const consumeState = accept();
    const result = await verifyProof(await proofQuery(), { signingSecret: SECRET, consumeState, now: NOW });
    expect(result).toEqual({
      ok: true,
      proof: {
        platform: "twitter",
        platform_id: "1234567890",
        handle: "Ada, Co + Zoë ✓",
        state: "app-state-1",
        expires: NOW / 1000 + 300,
        sig: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    expect(consumeState).toHaveBeenCalledTimes(1);
    expect(consumeState).toHaveBeenCalledWith("app-state-1");
  });

  it("takes a callback URL, a query string with or without '?', a URL or URLSearchParams", async () => {
    const query = await proofQuery();
    for (const input of [
      `https://app.example.test/cb?${query}`,
      `?${query}`,
      query.toString(),
      new URL(`https://app.example.test/cb?x=1&${query}`),
      query,
    ]) {
      const result = await verifyProof(input, { signingSecret: SECRET, consumeState: () => true, now: NOW });
      expect(result.ok).toBe(true);
    }
  });

  it("awaits an async state store", async () => {
    const used = new Set<string>();
    const consumeState = async (state: string) => {
      await Promise.resolve();
      if (used.has(state)) return false;
      used.add(state);
      return true;
    };
    const query = await proofQuery();
    expect((await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).ok).toBe(true);
    // Single use: the same proof again is refused by the application's state store.
    expect(await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).toEqual({
      ok: false,
      reason: "state_rejected",
    });
  });

  it.each([
    ["platform", "tiktok"],
    ["platform_id", "1234567891"],
    ["handle", "Ada, Co + Zoe ✓"],
    ["state", "app-state-2"],
    ["expires", String(NOW / 1000 + 301)],
  ])("refuses a proof whose %s was changed, without touching the state", async (field, value) => {
    const query = await proofQuery();
    query.set(field, value);
    const consumeState = accept();
    expect(await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
    expect(consumeState).not.toHaveBeenCalled();
  });

  it("refuses a signature made with another secret, in upper case, or of the wrong length", async () => {
    const consumeState = accept();
    const other = await proofQuery({}, "sps_another-secret");
    const upper = await proofQuery();
    upper.set("sig", upper.get("sig")!.toUpperCase());
    const short = await proofQuery();
    short.set("sig", short.get("sig")!.slice(0, 62));
    for (const query of [other, upper, short]) {
      expect((await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).ok).toBe(false);
    }
    expect(consumeState).not.toHaveBeenCalled();
  });

  it("compares signatures with crypto.subtle.verify (constant time)", async () => {
    const verify = vi.spyOn(crypto.subtle, "verify");
    await verifyProof(await proofQuery(), { signingSecret: SECRET, consumeState: () => true, now: NOW });
    expect(verify).toHaveBeenCalledWith("HMAC", expect.anything(), expect.any(Uint8Array), expect.anything());
    verify.mockRestore();
  });

  it("refuses a proof at or after `expires`, and accepts it one millisecond before", async () => {
    const query = await proofQuery();
    const at = (now: number) => verifyProof(query, { signingSecret: SECRET, consumeState: () => true, now });
    expect((await at(NOW + 300_000 - 1)).ok).toBe(true);
    expect(await at(NOW + 300_000)).toEqual({ ok: false, reason: "expired" });
    expect(await at(NOW + 3_600_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("defaults `now` to the current time", async () => {
    const query = await proofQuery({ expires: String(Math.floor(Date.now() / 1000) - 1) });
    expect(await verifyProof(query, { signingSecret: SECRET, consumeState: () => true })).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuses missing, repeated or malformed fields", async () => {
    const consumeState = accept();
    for (const mutate of [
      (q: URLSearchParams) => q.delete("handle"),
      (q: URLSearchParams) => q.delete("sig"),
      (q: URLSearchParams) => q.append("state", "second"),
      (q: URLSearchParams) => q.set("expires", "soon"),
      (q: URLSearchParams) => q.set("expires", "-1"),
      (q: URLSearchParams) => q.set("expires", "1.5"),
    ]) {
      const query = await proofQuery();
      mutate(query);
      expect(await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).toEqual({
        ok: false,
        reason: "malformed",
      });
    }
    expect(consumeState).not.toHaveBeenCalled();
  });

  it("reports the service's callback errors as such, even with a sig present", async () => {
    const consumeState = accept();
    const query = new URLSearchParams({
      error: "access_denied",
      error_description: "The user declined.",
      state: "app-state-1",
      sig: "0".repeat(64),
    });
    expect(await verifyProof(query, { signingSecret: SECRET, consumeState, now: NOW })).toEqual({
      ok: false,
      reason: "callback_error",
      error: "access_denied",
      error_description: "The user declined.",
      state: "app-state-1",
    });
    expect(consumeState).not.toHaveBeenCalled();
  });

  it("builds the signed string in the documented order", () => {
    expect(proofMessage({ platform: "x", platform_id: "1", handle: "h&=", state: "s", expires: 2 })).toBe(
      "platform=x&platform_id=1&handle=h&=&state=s&expires=2",
    );
  });

  it("has no dependencies: no import statements at all", () => {
    expect(source).toContain("export async function verifyProof");
    expect(source).not.toMatch(/^\s*import\s/m);
    expect(source).not.toMatch(/\brequire\(/);
  });
});
