// Issue 10, item 1: the signed string joins raw values with `&` and `=`, so a value holding those
// characters could be re-split into other fields under the same signature. No signed value may contain
// them: the service refuses such a `state`, cleans the handle and refuses such a platform id before
// signing, and verifyProof accepts only the eight platforms and no field with `&` or `=`.
import { describe, expect, it } from "vitest";
import { proofMessage, verifyProof } from "../../src/verify-proof";
import { createApp, createSession, hmacHex, runFlow, SESSIONS } from "../delegation/support";
import { call } from "../support/client";

const ATTACK_HANDLE = "m&platform_id=1234567890&handle=victim";

describe("a signed proof cannot be re-split", () => {
  it("strips & and = from a platform handle before signing, so the attacker's rewrite never verifies", async () => {
    const app = await createApp();
    const state = `st-${crypto.randomUUID()}`;
    const { landed } = await runFlow(await createSession(app, { state }), { handle: ATTACK_HANDLE });
    const proof = landed.searchParams;
    expect(proof.get("error")).toBeNull();
    expect(proof.get("handle")).toBe("mplatform_id1234567890handlevictim");
    const realId = proof.get("platform_id")!;
    expect(realId).not.toBe("1234567890");

    // The genuine proof verifies.
    const genuine = await verifyProof(proof, { signingSecret: app.secret, consumeState: () => true });
    expect(genuine.ok).toBe(true);

    // The attacker moves the field boundaries: platform swallows the real id, platform_id is chosen.
    const forged = new URLSearchParams({
      platform: `twitter&platform_id=${realId}&handle=m`,
      platform_id: "1234567890",
      handle: "victim",
      state,
      expires: proof.get("expires")!,
      sig: proof.get("sig")!,
    });
    const result = await verifyProof(forged, { signingSecret: app.secret, consumeState: () => true });
    expect(result).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses a session state containing & or = (422 invalid_request)", async () => {
    const app = await createApp();
    for (const state of ["a&b", "a=b", "x&platform_id=1"]) {
      const res = await call("POST", SESSIONS, {
        key: app.key,
        body: { platform: "twitter", callback_url: "https://app.example.test/cb", state },
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe("invalid_request");
      expect(res.body.errors.state).toEqual(["The state field must not contain & or =."]);
    }
  });
});

describe("verifyProof refuses what the service never signs", () => {
  const SECRET = "sps_unit-test-signing-secret";
  const NOW = 1_800_000_000_000;
  const sign = async (fields: Record<string, string>) =>
    new URLSearchParams({
      ...fields,
      sig: await hmacHex(SECRET, proofMessage(fields as Parameters<typeof proofMessage>[0])),
    });
  const base = {
    platform: "twitter",
    platform_id: "1234567890",
    handle: "ada",
    state: "s1",
    expires: String(NOW / 1000 + 300),
  };

  it.each([
    ["an unknown platform", { platform: "myspace" }],
    ["& in the platform", { platform: "twitter&x" }],
    ["= in the platform id", { platform_id: "12=34" }],
    ["& in the handle", { handle: "Ada & Co" }],
    ["= in the state", { state: "s=1" }],
  ])("even when correctly signed: %s", async (_, patch) => {
    const query = await sign({ ...base, ...patch });
    const result = await verifyProof(query, { signingSecret: SECRET, consumeState: () => true, now: NOW });
    expect(result).toEqual({ ok: false, reason: "malformed" });
  });

  it("still accepts each of the eight platforms", async () => {
    for (const platform of [
      "tiktok",
      "instagram",
      "twitter",
      "linkedin",
      "youtube",
      "facebook",
      "pinterest",
      "threads",
    ]) {
      const query = await sign({ ...base, platform });
      const result = await verifyProof(query, { signingSecret: SECRET, consumeState: () => true, now: NOW });
      expect(result.ok).toBe(true);
    }
  });
});

describe("the verifier's platforms", () => {
  it("are exactly the service's (verify-proof.ts stays dependency-free, so it keeps its own list)", async () => {
    const { PLATFORMS } = await import("../../src/db/enums");
    const { PROOF_PLATFORMS } = await import("../../src/verify-proof");
    expect([...PROOF_PLATFORMS].sort()).toEqual([...PLATFORMS].sort());
  });
});
