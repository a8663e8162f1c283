// Passkeys in the console: adding one on the security page and signing in with it (no email asked),
// through a software authenticator (authenticator.ts) and SimpleWebAuthn on the worker. Every refusal
// (a replayed or expired challenge, another origin or rp id, an unknown credential, a counter that goes
// back) opens no session; another user's passkey is a 404; sign-in attempts count against the IP limit.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../support/client";
import { createUser } from "../support/seed";
import { Authenticator } from "./authenticator";
import { Browser, signedIn } from "./support";

const body = (page: { html: string }) => JSON.parse(page.html);

/** A signed-in browser of a new user (of `shard`), and the csrf field of its security page. */
async function userWithBrowser(shard?: number) {
  const user = await createUser(undefined, shard);
  const browser = await signedIn(user.id);
  return { user, browser, csrf: await browser.csrf("/console/security") };
}

/** Adds a passkey for the browser's user; answers the authenticator that holds it. */
async function addPasskey(browser: Browser, csrf: string, authenticator = new Authenticator()) {
  const options = await browser.post("/console/passkeys/register/options", { csrf });
  expect(options.status, options.html).toBe(200);
  const response = await authenticator.register(body(options));
  const done = await browser.post("/console/passkeys/register/verify", { csrf, response });
  expect(done.status, done.html).toBe(200);
  expect(body(done)).toEqual({ redirect: "/console/security" });
  return authenticator;
}

/** A sign-in attempt from a fresh browser: the options, then the authenticator's answer. */
async function signInWith(authenticator: Authenticator, over: Parameters<Authenticator["signIn"]>[1] = {}) {
  const browser = new Browser();
  const options = await browser.post("/console/passkeys/sign-in/options");
  expect(options.status, options.html).toBe(200);
  const response = await authenticator.signIn(body(options), over);
  const answer = await browser.post("/console/passkeys/sign-in/verify", { response });
  return { browser, answer, response, options: body(options) };
}

const sessionCount = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM console_sessions WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("passkeys", () => {
  it("adds a discoverable passkey on the security page and signs in with it, no email asked", async () => {
    const { user, browser, csrf } = await userWithBrowser();
    const options = body(await browser.post("/console/passkeys/register/options", { csrf }));
    expect(options.rp).toEqual({ name: "Social Publishing API", id: new URL(ORIGIN).hostname });
    // The user handle is the user's id: it names the shard that holds the credential.
    expect(options.user.id).toBe(btoa(String(user.id)).replace(/=+$/, ""));
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "preferred",
    });
    expect(options.excludeCredentials).toEqual([]);

    const authenticator = await addPasskey(browser, csrf);
    const security = await browser.get("/console/security");
    expect(security.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(security.html).toContain("<h3>Passkey</h3>");
    expect(security.html).toContain("<dd>never</dd>");
    // The same authenticator is not offered a second credential.
    const again = body(await browser.post("/console/passkeys/register/options", { csrf }));
    expect(again.excludeCredentials).toEqual([
      { id: authenticator.credentialId, type: "public-key", transports: ["internal"] },
    ]);

    const before = await sessionCount(user.id);
    const { browser: other, answer, options: signInOptions } = await signInWith(authenticator);
    expect(signInOptions.allowCredentials ?? []).toEqual([]);
    expect(answer.status, answer.html).toBe(200);
    expect(body(answer)).toEqual({ redirect: "/console/keys" });
    // The session, then the console's mode (the user's live data: src/console/page-routes.ts).
    expect(answer.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^__Host-session=s_[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/),
      "__Host-console-mode=live; Path=/; HttpOnly; Secure; SameSite=Lax",
    ]);
    expect(await sessionCount(user.id)).toBe(before + 1);
    expect((await other.get("/console/keys")).status).toBe(200);
    const row = await env.DB.prepare("SELECT counter, last_used_at FROM passkeys WHERE user_id = ?")
      .bind(user.id)
      .first<{ counter: number; last_used_at: number | null }>();
    expect(row).toMatchObject({ counter: 1 });
    expect(row!.last_used_at).toBeGreaterThan(Date.now() - 60_000);
  });

  it("signs in a user of shard 1: the handle names the shard, with no directory", async () => {
    const { browser, csrf, user } = await userWithBrowser(1);
    const authenticator = await addPasskey(browser, csrf);
    expect(Math.floor(user.id / 2 ** 40)).toBe(1);
    const { browser: other, answer } = await signInWith(authenticator);
    expect(answer.status, answer.html).toBe(200);
    expect(other.cookie).toMatch(/^s1_/);
    expect((await other.get("/console/keys")).status).toBe(200);
  });

  it("refuses a replayed sign-in: the challenge is taken by its first use", async () => {
    const { browser, csrf, user } = await userWithBrowser();
    const authenticator = await addPasskey(browser, csrf);
    const { response, answer } = await signInWith(authenticator);
    expect(answer.status).toBe(200);
    const before = await sessionCount(user.id);
    const replay = await new Browser().post("/console/passkeys/sign-in/verify", { response });
    expect(replay.status).toBe(403);
    expect(body(replay).message).toMatch(/expired or was already used/);
    expect(replay.headers.get("set-cookie")).toBeNull();
    expect(await sessionCount(user.id)).toBe(before);
  });

  it("refuses an expired challenge (5 minutes), for sign-in and registration alike", async () => {
    const { browser, csrf, user } = await userWithBrowser();
    const authenticator = new Authenticator();
    const options = body(await browser.post("/console/passkeys/register/options", { csrf }));
    await env.DB.prepare("UPDATE passkey_challenges SET expires_at = ? WHERE challenge = ?")
      .bind(Date.now() - 1, options.challenge)
      .run();
    const late = await browser.post("/console/passkeys/register/verify", {
      csrf,
      response: await authenticator.register(options),
    });
    expect(late.status).toBe(403);
    await addPasskey(browser, csrf, authenticator);

    const signIn = new Browser();
    const signInOptions = body(await signIn.post("/console/passkeys/sign-in/options"));
    const row = await env.DB.prepare("SELECT user_id, expires_at FROM passkey_challenges WHERE challenge = ?")
      .bind(signInOptions.challenge)
      .first<{ user_id: number | null; expires_at: number }>();
    expect(row!.user_id).toBeNull();
    expect(row!.expires_at - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(row!.expires_at - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    await env.DB.prepare("UPDATE passkey_challenges SET expires_at = ? WHERE challenge = ?")
      .bind(Date.now() - 1, signInOptions.challenge)
      .run();
    const before = await sessionCount(user.id);
    const refused = await signIn.post("/console/passkeys/sign-in/verify", {
      response: await authenticator.signIn(signInOptions),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await sessionCount(user.id)).toBe(before);
  });

  it("refuses a response made for another origin or another rp id", async () => {
    const { browser, csrf, user } = await userWithBrowser();
    const options = body(await browser.post("/console/passkeys/register/options", { csrf }));
    const phished = await browser.post("/console/passkeys/register/verify", {
      csrf,
      response: await new Authenticator().register(options, {
        origin: "https://api.example.test.evil.example",
      }),
    });
    expect(phished.status).toBe(403);
    const authenticator = await addPasskey(browser, csrf);
    const before = await sessionCount(user.id);
    const origin = await signInWith(authenticator, { origin: "https://evil.example" });
    expect(origin.answer.status).toBe(403);
    expect(body(origin.answer).message).toBe("The passkey could not be verified.");
    const rpId = await signInWith(authenticator, { rpId: "evil.example" });
    expect(rpId.answer.status).toBe(403);
    expect(await sessionCount(user.id)).toBe(before);
  });

  it("refuses an unknown credential, and one answered with another user's handle", async () => {
    const { browser, csrf } = await userWithBrowser();
    const mine = await addPasskey(browser, csrf);
    const stranger = new Authenticator();
    stranger.userHandle = mine.userHandle;
    const unknown = await signInWith(stranger);
    expect(unknown.answer.status).toBe(403);
    expect(body(unknown.answer).message).toBe("This passkey is not registered here.");
    const other = await createUser();
    const swapped = await signInWith(mine, { userHandle: btoa(String(other.id)).replace(/=+$/, "") });
    expect(swapped.answer.status).toBe(403);
    const none = await signInWith(mine, { userHandle: "" });
    expect(none.answer.status).toBe(403);
    expect(unknown.answer.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a counter that goes backwards (a cloned authenticator)", async () => {
    const { browser, csrf } = await userWithBrowser();
    const authenticator = await addPasskey(browser, csrf);
    expect((await signInWith(authenticator, { counter: 5 })).answer.status).toBe(200);
    const clone = await signInWith(authenticator, { counter: 3 });
    expect(clone.answer.status).toBe(403);
    expect(clone.answer.headers.get("set-cookie")).toBeNull();
  });

  it("renames and removes the user's own passkeys; another user's is a 404, the same as none", async () => {
    const { browser, csrf, user } = await userWithBrowser();
    await addPasskey(browser, csrf);
    const { id } = (await env.DB.prepare("SELECT id FROM passkeys WHERE user_id = ?")
      .bind(user.id)
      .first<{ id: number }>())!;
    const intruder = await userWithBrowser();
    for (const path of [
      `/console/security/passkeys/${id}/remove`,
      `/console/security/passkeys/${id}/rename`,
    ]) {
      const foreign = await intruder.browser.post(path, { csrf: intruder.csrf, name: "mine now" });
      expect(foreign.status).toBe(404);
    }
    expect(
      (await intruder.browser.post("/console/security/passkeys/999999999/remove", { csrf: intruder.csrf }))
        .status,
    ).toBe(404);
    // Without the csrf field, nothing changes.
    expect((await browser.post(`/console/security/passkeys/${id}/remove`)).status).toBe(403);
    expect((await browser.post("/console/passkeys/register/options")).status).toBe(403);

    const blank = await browser.post(`/console/security/passkeys/${id}/rename`, { csrf, name: "  " });
    expect(blank.status).toBe(422);
    const renamed = await browser.post(`/console/security/passkeys/${id}/rename`, {
      csrf,
      name: "Work laptop",
    });
    expect(renamed.status).toBe(303);
    expect((await browser.get("/console/security")).html).toContain("<h3>Work laptop</h3>");
    const removed = await browser.post(`/console/security/passkeys/${id}/remove`, { csrf });
    expect(removed.status).toBe(303);
    expect((await browser.get("/console/security")).html).toContain("No passkeys yet.");
  });

  it("refuses a malformed answer with a 400 and a signed-out registration with a 401", async () => {
    const malformed = await new Browser().post("/console/passkeys/sign-in/verify", { response: "{not json" });
    expect(malformed.status).toBe(400);
    expect(body(malformed).message).toMatch(/could not be read/);
    const signedOut = await new Browser().post("/console/passkeys/register/options");
    expect(signedOut.status).toBe(401);
  });

  it("counts every sign-in request against the client's address (429 past the limit)", async () => {
    const browser = new Browser();
    let last = 0;
    for (let i = 0; i < 31; i++) ({ status: last } = await browser.post("/console/passkeys/sign-in/options"));
    expect(last).toBe(429);
    const verify = await browser.post("/console/passkeys/sign-in/verify", { response: "{}" });
    expect(verify.status).toBe(429);
    expect(Number(verify.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("serves its one script from the console's origin; other pages keep script-src 'none'", async () => {
    const script = await new Browser().get("/console/assets/passkey.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(script.html).toContain("parseRequestOptionsFromJSON");
    const { browser } = await userWithBrowser();
    const keys = await browser.get("/console/keys");
    expect(keys.headers.get("content-security-policy")).toContain("script-src 'none'");
    expect(keys.html).not.toContain("<script");
  });
});
