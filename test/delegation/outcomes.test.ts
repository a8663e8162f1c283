// The OAuth flow's steps as plain functions (src/oauth/, src/delegation/callback.ts, pick.ts): what each
// answers, before any route turns it into a redirect or a page. The browser tests (flow.test.ts,
// test/accounts/) run the same steps through the routes.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardDatabases } from "../../src/db/shards";
import { callback } from "../../src/delegation/callback";
import { pick } from "../../src/delegation/pick";
import { authorize } from "../../src/oauth/authorize";
import type { FlowContext } from "../../src/oauth/context";
import type { FlowOutcome } from "../../src/oauth/outcome";
import { startFlow } from "../../src/oauth/start";
import { createTenant } from "../support/seed";
import { APP_CALLBACK, Browser, createApp, formAction, locationOf, ORIGIN, randomState } from "./support";

const ctx: FlowContext = { env, shards: shardDatabases(env), metered: (work) => work(), origin: ORIGIN };

const REDIRECT = "https://app.example.test/accounts/done";

const tokenOf = (authorizeUrl: string) => authorizeUrl.split("/").at(-1)!;

/** The browser that consented: it sends back the cookie the consent outcome set, and nothing else. */
function cookieJar(consent: FlowOutcome) {
  if (consent.kind !== "consent") throw new Error(`expected a consent, got ${consent.kind}`);
  const [name, value] = consent.cookie.split(";")[0]!.split("=") as [string, string];
  return (asked: string) => (asked === name ? value : undefined);
}

/** The user answers the sandbox's consent page; the query the platform sends the browser back with. */
async function consentAnswer(consent: FlowOutcome, decision: "allow" | "deny" = "allow", handle = "ada") {
  if (consent.kind !== "consent") throw new Error(`expected a consent, got ${consent.kind}`);
  const browser = new Browser();
  const action = formAction(await (await browser.get(consent.location)).text());
  const back = new URL(locationOf(await browser.post(action, { handle, decision })));
  const query = Object.fromEntries(back.searchParams) as Record<string, string>;
  return { state: query.state, code: query.code, error: query.error };
}

async function delegation(state = randomState()) {
  const app = await createApp();
  const link = await startFlow(env, ctx.metered, ORIGIN, {
    mode: "live",
    platform: "twitter",
    callbackUrl: APP_CALLBACK,
    state,
    keyId: app.keyId,
  });
  return { app, state, link };
}

describe("startFlow", () => {
  it("answers a signed single-use link on the service's origin, valid 15 minutes", async () => {
    const { link } = await delegation();
    expect(link.expires_in).toBe(900);
    expect(link.authorize_url.startsWith(`${ORIGIN}/api/oauth/delegate/authorize/`)).toBe(true);
  });
});

describe("authorize", () => {
  it("sends the browser to the platform's consent page with a cookie bound to the callback path", async () => {
    const { link } = await delegation();
    const opened = await authorize(ctx, tokenOf(link.authorize_url));
    expect(opened.kind).toBe("consent");
    if (opened.kind !== "consent") return;
    expect(opened.location.startsWith(`${ORIGIN}/sandbox/twitter/`)).toBe(true);
    expect(opened.cookie).toMatch(
      /^sp_delegation_[\w-]+=\S+; Path=\/api\/oauth\/delegate\/callback; Max-Age=900;/,
    );
  });

  it("is an error page for a token that was not signed here, and back to the app once spent", async () => {
    const { link, state } = await delegation();
    expect(await authorize(ctx, "not-a-token")).toEqual({
      kind: "invalid_link",
      detail: "This connection link is not valid. It may have been copied incompletely.",
    });
    await authorize(ctx, tokenOf(link.authorize_url));
    const again = await authorize(ctx, tokenOf(link.authorize_url));
    expect(again).toMatchObject({ kind: "failed", error: "expired_request", cookies: [] });
    // A delegation's way back carries the application's state; the error goes in the query.
    const back = new URL((again as { location: string }).location);
    expect(back.searchParams.get("state")).toBe(state);
    expect(back.searchParams.get("error")).toBe("expired_request");
  });
});

describe("callback", () => {
  it("signs the proof of who consented and clears the flow's cookie", async () => {
    const { link, state } = await delegation();
    const consent = await authorize(ctx, tokenOf(link.authorize_url));
    const done = await callback(ctx, await consentAnswer(consent), cookieJar(consent));
    expect(done.kind).toBe("proof");
    if (done.kind !== "proof") return;
    const proof = new URL(done.location).searchParams;
    expect(proof.get("state")).toBe(state);
    expect(proof.get("handle")).toBe("ada");
    expect(proof.get("sig")).toMatch(/^[0-9a-f]{64}$/);
    expect(done.cookies).toEqual([expect.stringMatching(/^sp_delegation_[\w-]+=; .*Max-Age=0;/)]);
  });

  it("answers a refusal at the platform with access_denied, and spends the flow", async () => {
    const { link } = await delegation();
    const consent = await authorize(ctx, tokenOf(link.authorize_url));
    const answer = await consentAnswer(consent, "deny");
    const denied = await callback(ctx, answer, cookieJar(consent));
    expect(denied).toMatchObject({
      kind: "failed",
      error: "access_denied",
      description: "The user declined to connect their X (Twitter) account.",
    });
    const replay = await callback(ctx, answer, cookieJar(consent));
    expect(replay).toMatchObject({ kind: "failed", error: "expired_request" });
  });

  it("refuses a state it did not sign (an error page), and another browser (back to the app)", async () => {
    expect(await callback(ctx, { state: "forged.secret", code: "c" }, () => undefined)).toMatchObject({
      kind: "invalid_link",
    });
    const { link } = await delegation();
    const consent = await authorize(ctx, tokenOf(link.authorize_url));
    const elsewhere = await callback(ctx, await consentAnswer(consent), () => undefined);
    expect(elsewhere).toMatchObject({
      kind: "failed",
      error: "connection_failed",
      description: "The connection was finished in a different browser from the one that started it.",
      cookies: [],
    });
  });

  it("ends a connect on the redirect_url with the stored account, or on the channel page", async () => {
    const t = await createTenant();
    const connect = (platform: string) =>
      startFlow(env, ctx.metered, ORIGIN, {
        mode: "live",
        platform,
        callbackUrl: REDIRECT,
        state: "",
        keyId: t.keyId,
        connect: { workspaceId: t.workspace.id, userId: t.user.id },
      });
    const x = await authorize(ctx, tokenOf((await connect("twitter")).authorize_url));
    const stored = await callback(ctx, await consentAnswer(x, "allow", "grace"), cookieJar(x));
    expect(stored.kind).toBe("connected");
    if (stored.kind !== "connected") return;
    expect(stored.location).toBe(
      `${REDIRECT}?status=connected&account_id=${stored.accountId}&platform=twitter`,
    );

    // Two Facebook Pages: the user picks, with the browser that consented.
    const fb = await authorize(ctx, tokenOf((await connect("facebook")).authorize_url));
    const page = await callback(ctx, await consentAnswer(fb, "allow", "dora"), cookieJar(fb));
    expect(page.kind).toBe("choose_channel");
    if (page.kind !== "choose_channel") return;
    expect(page.platformLabel).toBe("Facebook");
    expect(page.channels.length).toBeGreaterThan(1);
    const channel = page.channels[1]!.id;
    expect(await pick(ctx, { flow: page.flow, channel }, () => undefined)).toMatchObject({
      kind: "invalid_link",
    });
    // The refusal above did not spend the pick; a channel not offered does, and goes back to the app.
    expect(await pick(ctx, { flow: page.flow, channel: "not-offered" }, cookieJar(fb))).toMatchObject({
      kind: "failed",
      error: "connection_failed",
      description: "The chosen channel is not one of those offered.",
    });
  });
});

describe("pick", () => {
  it("is an error page without a signed flow or a channel, before any Coordinator is reached", async () => {
    const detail = "This choice does not belong to a connection request.";
    expect(await pick(ctx, { flow: undefined, channel: "1" }, () => undefined)).toEqual({
      kind: "invalid_link",
      detail,
    });
    expect(await pick(ctx, { flow: "x".repeat(40), channel: "1" }, () => undefined)).toMatchObject({
      kind: "invalid_link",
    });
  });
});
