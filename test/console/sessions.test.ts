// Console sessions: idle and absolute expiry, sign-out, the security page's list and revocation, and
// the CSRF guard in front of every state change.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { createUser } from "../support/seed";
import { Browser, signedIn } from "./support";

const HOUR = 3600_000;

async function age(browser: Browser, fields: { created_at?: number; last_used_at?: number }) {
  const hash = await sha256Hex(browser.cookie!);
  for (const [column, value] of Object.entries(fields))
    await env.DB.prepare(`UPDATE console_sessions SET ${column} = ? WHERE id_hash = ?`)
      .bind(value, hash)
      .run();
}

const keyCount = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

describe("a console session", () => {
  it("without a session, a page sends the browser to sign in", async () => {
    const res = await new Browser().get("/console/keys");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/console/sign-in");
  });

  it("ends after 12 hours without use", async () => {
    const browser = await signedIn((await createUser()).id);
    await age(browser, { last_used_at: Date.now() - 11 * HOUR });
    expect((await browser.get("/console/keys")).status).toBe(200);
    await age(browser, { last_used_at: Date.now() - 12 * HOUR - 1000 });
    expect((await browser.get("/console/keys")).status).toBe(303);
  });

  it("ends 30 days after sign-in, however often it is used", async () => {
    const browser = await signedIn((await createUser()).id);
    await age(browser, { created_at: Date.now() - 29 * 24 * HOUR });
    expect((await browser.get("/console/keys")).status).toBe(200);
    await age(browser, { created_at: Date.now() - 30 * 24 * HOUR - 1000 });
    expect((await browser.get("/console/keys")).status).toBe(303);
  });

  it("sign-out ends it on the server, not only in the browser", async () => {
    const browser = await signedIn((await createUser()).id);
    const cookie = browser.cookie!;
    const res = await browser.post("/console/sign-out", { csrf: await browser.csrf() });
    expect(res.status).toBe(303);
    expect(browser.cookie).toBeNull();
    const replay = new Browser();
    replay.cookie = cookie;
    expect((await replay.get("/console/keys")).status).toBe(303);
  });

  it("the security page lists the user's sessions and revokes another one", async () => {
    const user = await createUser();
    const here = await signedIn(user.id);
    const there = await signedIn(user.id);
    const other = await signedIn((await createUser()).id);
    const page = await here.get("/console/security");
    expect(page.status).toBe(200);
    const ids = [...page.html.matchAll(/\/console\/security\/sessions\/(\d+)\/revoke/g)].map((m) =>
      Number(m[1]),
    );
    expect(ids).toHaveLength(2);
    expect(page.html).toContain("This browser");
    const thereId = (await env.DB.prepare("SELECT id FROM console_sessions WHERE id_hash = ?")
      .bind(await sha256Hex(there.cookie!))
      .first<{ id: number }>())!.id;
    const otherId = (await env.DB.prepare("SELECT id FROM console_sessions WHERE id_hash = ?")
      .bind(await sha256Hex(other.cookie!))
      .first<{ id: number }>())!.id;
    const csrf = await here.csrf("/console/security");
    // Another user's session: 404, and it lives on.
    expect((await here.post(`/console/security/sessions/${otherId}/revoke`, { csrf })).status).toBe(404);
    expect((await other.get("/console/keys")).status).toBe(200);
    expect((await here.post(`/console/security/sessions/${thereId}/revoke`, { csrf })).status).toBe(303);
    expect((await there.get("/console/keys")).status).toBe(303);
    expect((await here.get("/console/keys")).status).toBe(200);
  });
});

describe("the CSRF guard", () => {
  it("refuses a state change without the csrf field, with a wrong one or another session's (403), changing nothing", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const stranger = await signedIn((await createUser()).id);
    const form = { name: "CI", abilities: ["posts"] };
    expect((await browser.post("/console/keys", form)).status).toBe(403);
    expect((await browser.post("/console/keys", { ...form, csrf: "0".repeat(64) })).status).toBe(403);
    expect((await browser.post("/console/keys", { ...form, csrf: await stranger.csrf() })).status).toBe(403);
    expect((await browser.post("/console/sign-out", {})).status).toBe(403);
    expect(await keyCount(user.id)).toBe(0);
    expect((await browser.get("/console/keys")).status).toBe(200);
  });

  it("refuses a post from another origin or without Origin, even with the right csrf (403)", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf();
    const form = { name: "CI", abilities: ["posts"], csrf };
    expect((await browser.post("/console/keys", form, { origin: "https://evil.example" })).status).toBe(403);
    expect((await browser.post("/console/keys", form, { origin: "null" })).status).toBe(403);
    expect(await keyCount(user.id)).toBe(0);
    expect((await browser.post("/console/keys", form)).status).toBe(200);
    expect(await keyCount(user.id)).toBe(1);
  });

  it("refuses a form body over 16 KiB (413) before reading it, changing nothing", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf();
    const res = await browser.post("/console/keys", { name: "x".repeat(20_000), abilities: ["posts"], csrf });
    expect(res.status).toBe(413);
    expect(await keyCount(user.id)).toBe(0);
  });
});
