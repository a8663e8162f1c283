// Console sign-in by one-time link: the form, the operator's invitation, a GET that consumes nothing,
// single use, expiry, the rate limit, and sessions that start fresh at each sign-in.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { admin, ORIGIN } from "../support/client";
import { createUser } from "../support/seed";
import { Browser, invitation, signedIn } from "./support";

const tokenOf = (path: string) => path.split("/").pop()!;
const linkRow = async (path: string) =>
  env.DB.prepare("SELECT used_at, expires_at FROM sign_in_links WHERE token_hash = ?")
    .bind(await sha256Hex(tokenOf(path)))
    .first<{ used_at: number | null; expires_at: number }>();

describe("the sign-in form", () => {
  it("answers the same page whether or not the address has a user, and stores a link only for a user", async () => {
    const user = await createUser();
    const email = (
      await admin("GET", `/users?email=${encodeURIComponent(`x-${crypto.randomUUID()}@example.test`)}`)
    ).body;
    expect(email.data).toEqual([]);
    const browser = new Browser();
    const known = await browser.post("/console/sign-in", { email: (await userEmail(user.id))! });
    const unknown = await browser.post("/console/sign-in", {
      email: `nobody-${crypto.randomUUID()}@example.test`,
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.html).toContain("Check your mail");
    expect(unknown.html).toBe(known.html);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_links WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(links!.n).toBe(1);
  });

  it("serves a page with a strict CSP, only its own passkey script, its stylesheet from its own origin", async () => {
    const page = await new Browser().get("/console/sign-in");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    // The one script, for passkeys (test/console/passkeys.test.ts): from this origin, never inline.
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect([...page.html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/console/assets/passkey.js" defer="">',
    ]);
    expect(page.html).toContain('href="/console/assets/console.css"');
    expect(page.html).toContain("Sign in with a link");
    const css = await new Browser().get("/console/assets/console.css");
    expect(css.headers.get("content-type")).toContain("text/css");
  });

  it("refuses the sixth attempt for one address within the window (429), whoever asks", async () => {
    const email = `brute-${crypto.randomUUID()}@example.test`;
    for (let i = 0; i < 5; i++)
      expect((await new Browser().post("/console/sign-in", { email })).status).toBe(200);
    const refused = await new Browser().post("/console/sign-in", { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses one client address past its limit, whatever the addresses it tries", async () => {
    const browser = new Browser();
    let last = 0;
    let lastHtml = "";
    for (let i = 0; i < 31; i++)
      ({ status: last, html: lastHtml } = await browser.post("/console/sign-in", {
        email: `spray-${i}-${crypto.randomUUID()}@example.test`,
      }));
    expect(last, lastHtml).toBe(429);
  });
});

const userEmail = async (id: number) =>
  (await env.DB.prepare("SELECT email FROM users WHERE id = ?").bind(id).first<{ email: string }>())?.email;

describe("a sign-in link", () => {
  it("the operator's invitation: a link on the service's origin, 15 minutes", async () => {
    const user = await createUser();
    const res = await admin("POST", `/users/${user.id}/sign-in-links`);
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(new RegExp(`^${ORIGIN}/console/sign-in/l_[A-Za-z0-9_-]{43}$`));
    expect(res.body.expires_in).toBe(900);
    expect(Date.parse(res.body.expires_at) - Date.now()).toBeGreaterThan(890_000);
    expect((await admin("POST", "/users/999999999/sign-in-links")).status).toBe(404);
  });

  it("a GET shows a confirmation button and consumes nothing; the POST signs in once", async () => {
    const user = await createUser();
    const path = await invitation(user.id);
    const browser = new Browser();
    const confirm = await browser.get(path);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain(`<form method="post" action="${path}">`);
    await browser.get(path);
    expect((await linkRow(path))!.used_at).toBeNull();
    expect(browser.cookie).toBeNull();

    const signIn = await browser.post(path);
    expect(signIn.status).toBe(303);
    const cookie = signIn.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^__Host-session=s_[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Secure");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Path=/");
    expect((await browser.get("/console/keys")).status).toBe(200);

    const again = new Browser();
    const reused = await again.post(path);
    expect(reused.status).toBe(410);
    expect(reused.html).toContain("already used or it has expired");
    expect(again.cookie).toBeNull();
  });

  it("an expired link shows the same page and no session", async () => {
    const user = await createUser();
    const path = await invitation(user.id);
    await env.DB.prepare("UPDATE sign_in_links SET expires_at = ? WHERE token_hash = ?")
      .bind(Date.now() - 1, await sha256Hex(tokenOf(path)))
      .run();
    const browser = new Browser();
    const res = await browser.post(path);
    expect(res.status).toBe(410);
    expect(browser.cookie).toBeNull();
  });

  it("an unknown or malformed token is refused the same way", async () => {
    expect((await new Browser().post("/console/sign-in/l_nothing")).status).toBe(410);
    expect((await new Browser().post(`/console/sign-in/l_${"A".repeat(43)}`)).status).toBe(410);
  });

  it("a link posted from another origin is refused (403) and stays usable", async () => {
    const user = await createUser();
    const path = await invitation(user.id);
    const browser = new Browser();
    expect((await browser.post(path, {}, { origin: "https://evil.example" })).status).toBe(403);
    expect((await browser.request("POST", path, { headers: { origin: "" } })).status).toBe(403);
    expect((await linkRow(path))!.used_at).toBeNull();
    expect((await browser.post(path)).status).toBe(303);
  });

  it("gives a new session id at sign-in, ending the one the browser held (no fixation)", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const before = browser.cookie!;
    const path = await invitation(user.id);
    // Signed in, the confirmation page carries the session's csrf field, as every form does.
    const res = await browser.post(path, { csrf: await browser.csrf(path) });
    expect(res.status).toBe(303);
    expect(browser.cookie).not.toBe(before);
    const stale = new Browser();
    stale.cookie = before;
    expect((await stale.get("/console/keys")).status).toBe(303);
    // A planted cookie that names no session is simply replaced.
    const planted = new Browser();
    planted.cookie = `s_${"B".repeat(43)}`;
    await planted.post(await invitation(user.id));
    expect(planted.cookie).not.toBe(`s_${"B".repeat(43)}`);
  });

  it("signs in a user of shard 1: the link and the session name their shard", async () => {
    const user = await createUser("Shard one", 1);
    const path = await invitation(user.id);
    expect(tokenOf(path)).toMatch(/^l1_/);
    const browser = new Browser();
    expect((await browser.post(path)).status).toBe(303);
    expect(browser.cookie).toMatch(/^s1_/);
    expect((await browser.get("/console/keys")).status).toBe(200);
  });
});
