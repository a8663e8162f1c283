// The connect flow in the Coordinator: the same single-use steps as a delegation, carrying the account's
// workspace and user to the end; and delegation flows stored before connect flows existed still read.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Coordinator } from "../../src/coordinator";
import { PLATFORMS } from "../../src/db/enums";
import { EMULATORS } from "../../src/sandbox/emulators";
import { runFlow } from "../delegation/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

const T0 = 1_800_000_000_000;
const connectFlow = {
  platform: "tiktok",
  callbackUrl: "https://app.example.test/done",
  state: "",
  keyId: 3,
  mode: "live" as const,
  connect: { workspaceId: 11, userId: 12 },
};
const opening = {
  browserHash: "b".repeat(64),
  stateSecretHash: "s".repeat(43),
  codeVerifier: "v".repeat(43),
  redirectUri: "https://api.example.test/api/oauth/delegate/callback",
};
const finishing = { stateSecretHash: opening.stateSecretHash, browserHash: opening.browserHash };
const fresh = () => env.COORDINATOR.getByName(`delegation:unit-${crypto.randomUUID()}`);

describe("Coordinator connect flows", () => {
  it("carries the connect target through opening and finishing, once", async () => {
    const gate = fresh();
    await gate.createDelegation(connectFlow, T0);
    const target = {
      platform: "tiktok",
      callbackUrl: connectFlow.callbackUrl,
      state: "",
      mode: "live",
      // The key that started it comes back with the target (re-checked before the account is stored).
      connect: { workspaceId: 11, userId: 12, mode: "live", keyId: 3 },
    };
    expect(await gate.openDelegation(opening, T0 + 1)).toEqual({ kind: "ok", target });
    expect(await gate.openDelegation(opening, T0 + 2)).toEqual({ kind: "expired", target });
    expect(await gate.finishDelegation(finishing, T0 + 3)).toEqual({
      kind: "ok",
      target,
      keyId: 3,
      codeVerifier: opening.codeVerifier,
      redirectUri: opening.redirectUri,
    });
    expect(await gate.finishDelegation(finishing, T0 + 4)).toEqual({ kind: "used", target });
  });

  it("reads a flow stored before connect flows existed as a delegation", async () => {
    const gate = fresh();
    await runInDurableObject(gate, async (_instance: Coordinator, state) => {
      state.storage.sql.exec(`CREATE TABLE delegation_flow (
        id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, platform TEXT NOT NULL,
        callback_url TEXT NOT NULL, state TEXT NOT NULL, key_id INTEGER NOT NULL,
        created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, opened_at INTEGER,
        browser_hash TEXT, state_secret TEXT, code_verifier TEXT, redirect_uri TEXT)`);
      state.storage.sql.exec(
        "INSERT INTO delegation_flow (id, status, platform, callback_url, state, key_id, created_at, expires_at) VALUES (1, 'pending', 'twitter', 'https://app.example.test/cb', 'st', 7, ?, ?)",
        T0,
        T0 + 15 * 60_000,
      );
    });
    const target = {
      platform: "twitter",
      callbackUrl: "https://app.example.test/cb",
      state: "st",
      mode: "live",
    };
    expect(await gate.openDelegation(opening, T0 + 1)).toEqual({ kind: "ok", target });
    expect(await gate.finishDelegation(finishing, T0 + 2)).toMatchObject({ kind: "ok", target, keyId: 7 });
  });
});

describe("connecting each platform through the sandbox", () => {
  it.each(PLATFORMS)(
    "%s: stores the handle, the tokens and their expiry where the platform gives them",
    async (platform) => {
      const t = await createTenant();
      const started = await call("POST", "/api/v1/accounts/connect", {
        key: t.key,
        body: { workspace_id: t.workspace.id, platform, redirect_url: "https://app.example.test/done" },
      });
      expect(started.status).toBe(201);
      const { landed } = await runFlow(started.body.authorize_url, { handle: `user_${platform}` });
      expect(landed.searchParams.get("status")).toBe("connected");
      expect(landed.searchParams.get("platform")).toBe(platform);
      const id = Number(landed.searchParams.get("account_id"));
      const row = await env.DB.prepare(
        "SELECT platform, username, access_token_enc, refresh_token_enc, token_expires_at FROM accounts WHERE id = ?",
      )
        .bind(id)
        .first<Record<string, string | number | null>>();
      expect(row?.platform).toBe(platform);
      expect(row?.access_token_enc).toMatch(/^v2:/);
      if (platform === "facebook") {
        // The first of the user's Pages, with its own Page token: no refresh token, no expiry kept.
        expect(row?.username).toBe(`user_${platform}-page`);
        expect(row?.refresh_token_enc).toBeNull();
        expect(row?.token_expires_at).toBeNull();
        return;
      }
      expect(row?.username).toBe(`user_${platform}`);
      const shape = EMULATORS[platform].shape;
      if (platform === "instagram" || platform === "threads") {
        // Their emulators swap the code's one-hour token for a 60-day one (ig_/th_exchange_token), which
        // is kept as its own refresh token.
        expect(row?.refresh_token_enc).toMatch(/^v2:/);
        expect(row?.token_expires_at).toBeGreaterThan(Date.now() + (60 * 86_400 - 60) * 1000);
        return;
      }
      if (shape.refresh) expect(row?.refresh_token_enc).toMatch(/^v2:/);
      else expect(row?.refresh_token_enc).toBeNull();
      expect(row?.token_expires_at).toBeGreaterThan(Date.now() + (shape.accessTtl - 60) * 1000);
    },
  );
});
