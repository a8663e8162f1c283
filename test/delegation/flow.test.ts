import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { PLATFORMS } from "../../src/db/enums";
import { admin } from "../support/client";
import {
  APP_CALLBACK,
  Browser,
  createApp,
  createSession,
  flowIdOf,
  formAction,
  hmacHex,
  locationOf,
  ORIGIN,
  randomState,
  runFlow,
  signedString,
} from "./support";

const PROOF_KEYS = ["expires", "handle", "platform", "platform_id", "sig", "state"];
const ERROR_KEYS = ["error", "error_description", "state"];

describe("delegation through the sandbox: the signed proof", () => {
  it("redirects to callback_url with a proof the application can recompute", async () => {
    const app = await createApp();
    const state = randomState();
    const authorizeUrl = await createSession(app, { platform: "twitter", state });
    const before = Math.floor(Date.now() / 1000);
    const { landed } = await runFlow(authorizeUrl, { handle: "ada_lovelace" });
    const after = Math.floor(Date.now() / 1000);

    expect(`${landed.origin}${landed.pathname}`).toBe(APP_CALLBACK);
    const q = landed.searchParams;
    expect([...q.keys()].sort()).toEqual(PROOF_KEYS);
    expect(q.get("platform")).toBe("twitter");
    expect(q.get("handle")).toBe("ada_lovelace");
    expect(q.get("state")).toBe(state);
    expect(q.get("platform_id")).toMatch(/^\d{18}$/);
    // expires = issue time + 300 s.
    const expires = Number(q.get("expires"));
    expect(expires).toBeGreaterThanOrEqual(before + 300);
    expect(expires).toBeLessThanOrEqual(after + 300);
    // sig = lowercase hex HMAC-SHA256 of the documented string, keyed with the signing secret.
    const expected = await hmacHex(
      app.secret,
      `platform=twitter&platform_id=${q.get("platform_id")}&handle=ada_lovelace&state=${state}&expires=${expires}`,
    );
    expect(q.get("sig")).toBe(expected);
    expect(q.get("sig")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs a handle with spaces, signs and non-ASCII as received (less & and =), URL-encoded only in the query", async () => {
    const app = await createApp();
    const handle = "Ada & Co = Zoë + ✓ 東京?#%";
    const state = "state with spaces + signs ü ?#%";
    const { landed } = await runFlow(await createSession(app, { state }), { handle });
    const q = landed.searchParams;
    // & and = would let the signed string be re-split (see test/security/proof-split.test.ts).
    expect(q.get("handle")).toBe("Ada  Co  Zoë + ✓ 東京?#%");
    expect(q.get("state")).toBe(state);
    expect(q.get("sig")).toBe(await hmacHex(app.secret, signedString(q)));
    // The raw query carries them encoded, so the application's parser gets the exact values back.
    expect(landed.search).not.toContain("Ada  Co");
    expect(landed.search).toContain("handle=Ada++Co++Zo%C3%AB+%2B");
    // A signature over the URL-encoded values would not match.
    const encoded = `platform=twitter&platform_id=${q.get("platform_id")}&handle=${encodeURIComponent(handle)}&state=${encodeURIComponent(state)}&expires=${q.get("expires")}`;
    expect(q.get("sig")).not.toBe(await hmacHex(app.secret, encoded));
  });

  it("keeps the application's own query parameters on callback_url", async () => {
    const app = await createApp();
    const callback_url = "https://app.example.test/oauth/callback?session=42&lang=en";
    const { landed } = await runFlow(await createSession(app, { callback_url }));
    expect(landed.searchParams.get("session")).toBe("42");
    expect(landed.searchParams.get("lang")).toBe("en");
    expect(landed.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(PLATFORMS)(
    "completes for %s, with a platform_id stable per (platform, handle)",
    async (platform) => {
      const app = await createApp();
      const first = await runFlow(await createSession(app, { platform }), { handle: "grace" });
      const again = await runFlow(await createSession(app, { platform }), { handle: "grace" });
      const other = await runFlow(await createSession(app, { platform }), { handle: "hopper" });
      const q = first.landed.searchParams;
      expect(q.get("platform")).toBe(platform);
      expect(q.get("handle")).toBe("grace");
      expect(q.get("sig")).toBe(await hmacHex(app.secret, signedString(q)));
      expect(again.landed.searchParams.get("platform_id")).toBe(q.get("platform_id"));
      expect(other.landed.searchParams.get("platform_id")).not.toBe(q.get("platform_id"));
    },
  );

  it("gives the same handle different platform_ids on different platforms", async () => {
    const app = await createApp();
    const ids = new Set<string>();
    for (const platform of PLATFORMS) {
      const { landed } = await runFlow(await createSession(app, { platform }), { handle: "same" });
      ids.add(landed.searchParams.get("platform_id")!);
    }
    expect(ids.size).toBe(PLATFORMS.length);
  });
});

describe("delegation: refusal and platform failure", () => {
  it("access_denied with error_description and state, never a sig, when the user clicks Deny", async () => {
    const app = await createApp();
    const state = randomState();
    const { landed } = await runFlow(await createSession(app, { state }), { decision: "deny", handle: "" });
    expect(`${landed.origin}${landed.pathname}`).toBe(APP_CALLBACK);
    expect([...landed.searchParams.keys()].sort()).toEqual(ERROR_KEYS);
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("error_description")).toBe(
      "The user declined to connect their X (Twitter) account.",
    );
    expect(landed.searchParams.get("state")).toBe(state);
  });

  it("maps LinkedIn's own refusal error to access_denied", async () => {
    const app = await createApp();
    const { landed, steps } = await runFlow(await createSession(app, { platform: "linkedin" }), {
      decision: "deny",
    });
    expect(locationOf(steps.decision)).toContain("error=user_cancelled_authorize");
    expect(landed.searchParams.get("error")).toBe("access_denied");
  });

  it("connection_failed when the platform's token exchange fails (handle `fail`)", async () => {
    const app = await createApp();
    const state = randomState();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { landed } = await runFlow(await createSession(app, { state, platform: "youtube" }), {
      handle: "fail",
    });
    // Operators get a log line naming the failed step, never a code or token.
    expect(warn).toHaveBeenCalledWith("delegation: YouTube token exchange: HTTP 400");
    warn.mockRestore();
    expect([...landed.searchParams.keys()].sort()).toEqual(ERROR_KEYS);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toBe("YouTube did not complete the connection.");
    expect(landed.searchParams.get("state")).toBe(state);
  });

  it("connection_failed when the platform redirects back with another error or without a code", async () => {
    const app = await createApp();
    for (const query of ["error=server_error", ""]) {
      const browser = new Browser();
      const consent = new URL(locationOf(await browser.get(await createSession(app))));
      const state = consent.searchParams.get("state")!;
      const res = await browser.get(`/api/oauth/delegate/callback?state=${state}${query ? `&${query}` : ""}`);
      const landed = new URL(locationOf(res));
      expect(landed.searchParams.get("error")).toBe("connection_failed");
      expect(landed.searchParams.has("sig")).toBe(false);
    }
  });
});

describe("delegation: single use and expiry", () => {
  it("lets exactly 1 of 20 parallel opens of one authorize_url through; 19 get expired_request", async () => {
    const app = await createApp();
    const state = randomState();
    const authorizeUrl = await createSession(app, { state });
    const answers = await Promise.all(Array.from({ length: 20 }, () => new Browser().get(authorizeUrl)));
    const locations = answers.map(locationOf);
    const proceeded = locations.filter((l) => l.startsWith(`${ORIGIN}/sandbox/twitter/i/oauth2/authorize?`));
    const expired = locations.filter((l) => l.startsWith(`${APP_CALLBACK}?`)).map((l) => new URL(l));
    expect(proceeded).toHaveLength(1);
    expect(expired).toHaveLength(19);
    for (const url of expired) {
      expect([...url.searchParams.keys()].sort()).toEqual(ERROR_KEYS);
      expect(url.searchParams.get("error")).toBe("expired_request");
      expect(url.searchParams.get("error_description")).toContain("already used or has expired");
      expect(url.searchParams.get("state")).toBe(state);
    }
  });

  it("a HEAD request (a link checker's probe) does not spend the link", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    const probe = await new Browser().request("HEAD", authorizeUrl);
    expect(probe.status).toBe(204);
    expect(probe.headers.get("cache-control")).toBe("no-store");
    const { landed } = await runFlow(authorizeUrl);
    expect(landed.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("expired_request when the link is opened again after a completed flow", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    await runFlow(authorizeUrl);
    const again = new URL(locationOf(await new Browser().get(authorizeUrl)));
    expect(again.searchParams.get("error")).toBe("expired_request");
  });

  it("expired_request once the 15-minute alarm has fired, without waiting 15 minutes", async () => {
    const app = await createApp();
    const state = randomState();
    const authorizeUrl = await createSession(app, { state });
    const stub = env.COORDINATOR.getByName(`delegation:${flowIdOf(authorizeUrl)}`);
    // The alarm is set for creation + 15 min; firing it now is the clock reaching that moment.
    const scheduled = await runInDurableObject(stub, (_, ctx) => ctx.storage.getAlarm());
    expect(scheduled).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(scheduled).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const landed = new URL(locationOf(await new Browser().get(authorizeUrl)));
    expect(landed.searchParams.get("error")).toBe("expired_request");
    expect(landed.searchParams.get("state")).toBe(state);
  });

  it("replaying the platform's callback after completion gives expired_request, not a second proof", async () => {
    const app = await createApp();
    const { steps, browser } = await runFlow(await createSession(app));
    const replay = await browser.get(locationOf(steps.decision));
    const landed = new URL(locationOf(replay));
    expect(landed.searchParams.get("error")).toBe("expired_request");
    expect(landed.searchParams.has("sig")).toBe(false);
  });
});

describe("delegation: links that cannot be used", () => {
  const expectErrorPage = async (res: Response) => {
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("This link cannot be used");
  };

  it("400 HTML page for a tampered, truncated or invented authorize token", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    const token = authorizeUrl.split("/").at(-1)!;
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const otherId = `${token[0] === "A" ? "B" : "A"}${token.slice(1)}`;
    for (const bad of [flipped, otherId, token.slice(0, 43), `${token}x`, "not-a-token", "%00"]) {
      await expectErrorPage(await new Browser().get(`/api/oauth/delegate/authorize/${bad}`));
    }
    // The genuine link still works afterwards.
    expect(locationOf(await new Browser().get(authorizeUrl))).toContain(
      "/sandbox/twitter/i/oauth2/authorize?",
    );
  });

  it("400 HTML page for a well-formed token that no session created", async () => {
    const { newAuthorizeToken } = await import("../../src/coordinator/links");
    const { token } = await newAuthorizeToken(env);
    await expectErrorPage(await new Browser().get(`/api/oauth/delegate/authorize/${token}`));
  });

  it("400 HTML page for a callback whose state is missing, malformed or carries a wrong secret", async () => {
    const app = await createApp();
    const browser = new Browser();
    const consent = new URL(locationOf(await browser.get(await createSession(app))));
    const state = consent.searchParams.get("state")!;
    const [id, secret] = state.split(".") as [string, string];
    const wrong = `${id}.${secret.startsWith("A") ? "B" : "A"}${secret.slice(1)}`;
    for (const query of [
      "",
      "?code=x",
      `?state=${id}&code=x`,
      `?state=${wrong}&code=x`,
      "?state=..&code=x",
    ]) {
      await expectErrorPage(await browser.get(`/api/oauth/delegate/callback${query}`));
    }
  });

  it("refuses a callback in another browser without burning the flow of the browser that started it", async () => {
    const app = await createApp();
    const state = randomState();
    const browser = new Browser();
    const consentUrl = locationOf(await browser.get(await createSession(app, { state })));
    const action = formAction(await (await browser.get(consentUrl)).text());
    const callbackUrl = locationOf(await browser.post(action, { handle: "ada", decision: "allow" }));

    const stranger = new URL(locationOf(await new Browser().get(callbackUrl)));
    expect(stranger.searchParams.get("error")).toBe("connection_failed");
    expect(stranger.searchParams.get("error_description")).toContain("different browser");
    expect(stranger.searchParams.has("sig")).toBe(false);

    const own = new URL(locationOf(await browser.get(callbackUrl)));
    expect(own.searchParams.get("sig")).toMatch(/^[0-9a-f]{64}$/);
    expect(own.searchParams.get("state")).toBe(state);
    // The binding cookie is cleared once the flow is done.
    expect([...browser.cookies.keys()]).toEqual([]);
  });
});

describe("delegation: signing secrets", () => {
  it("signs with the secret current at proof time: regenerating it makes the old one useless at once", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    const regenerated = await admin<{ signing_secret: string }>(
      "POST",
      `/api-keys/${app.keyId}/signing-secret`,
    );
    expect(regenerated.status).toBe(201);
    const fresh = regenerated.body.signing_secret;
    expect(fresh).not.toBe(app.secret);
    const { landed } = await runFlow(authorizeUrl);
    const q = landed.searchParams;
    expect(q.get("sig")).toBe(await hmacHex(fresh, signedString(q)));
    expect(q.get("sig")).not.toBe(await hmacHex(app.secret, signedString(q)));
  });

  it("is stored encrypted: the D1 row never holds the secret in clear", async () => {
    const app = await createApp();
    const row = await env.DB.prepare("SELECT signing_secret_enc FROM api_keys WHERE id = ?")
      .bind(app.keyId)
      .first<{ signing_secret_enc: string }>();
    expect(row!.signing_secret_enc).not.toContain(app.secret);
    expect(row!.signing_secret_enc).not.toContain(app.secret.slice(4));
  });

  it("connection_failed when the key expired between session and proof", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, app.keyId)
      .run();
    const { landed } = await runFlow(authorizeUrl);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.has("sig")).toBe(false);
  });
});

describe("delegation: nothing about the connected account is stored", () => {
  it("leaves no trace of the handle or platform_id in D1 or in the flow's Durable Object", async () => {
    const app = await createApp();
    const handle = `trace_${crypto.randomUUID().replaceAll("-", "")}`;
    const authorizeUrl = await createSession(app);
    const { landed } = await runFlow(authorizeUrl, { handle });
    const platformId = landed.searchParams.get("platform_id")!;
    expect(landed.searchParams.get("handle")).toBe(handle);

    const tables = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'",
    ).all<{ name: string }>();
    expect(tables.results.map((t) => t.name)).toEqual(
      expect.arrayContaining(["accounts", "api_keys", "users"]),
    );
    for (const { name } of tables.results) {
      const rows = await env.DB.prepare(`SELECT * FROM "${name}"`).all();
      const dump = JSON.stringify(rows.results);
      expect(dump, `table ${name}`).not.toContain(handle);
      expect(dump, `table ${name}`).not.toContain(platformId);
    }

    const stub = env.COORDINATOR.getByName(`delegation:${flowIdOf(authorizeUrl)}`);
    const stored = await runInDurableObject(stub, async (_, ctx) => ({
      rows: ctx.storage.sql.exec("SELECT * FROM delegation_flow").toArray(),
      kv: [...(await ctx.storage.list())],
    }));
    expect(stored.kv).toEqual([]);
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]).toMatchObject({
      status: "completed",
      browser_hash: null,
      // Only a hash of the flow's state secret is ever kept (a late callback must still prove it).
      state_secret: expect.stringMatching(/^[0-9a-f]{64}$/),
      code_verifier: null,
    });
    const flowDump = JSON.stringify(stored);
    expect(flowDump).not.toContain(handle);
    expect(flowDump).not.toContain(platformId);
  });

  it("deletes a finished flow when its retention alarm fires", async () => {
    const app = await createApp();
    const authorizeUrl = await createSession(app);
    await runFlow(authorizeUrl);
    const stub = env.COORDINATOR.getByName(`delegation:${flowIdOf(authorizeUrl)}`);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await runInDurableObject(stub, (_, ctx) =>
      ctx.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'delegation_flow'")
        .toArray(),
    );
    expect(rows).toEqual([]);
    // With the flow gone there is nowhere to redirect: the link is now simply unknown.
    expect((await new Browser().get(authorizeUrl)).status).toBe(400);
  });
});
