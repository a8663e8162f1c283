// The console under attack: a malformed form, a raced link, parallel sign-in attempts, forged cookies,
// look-alike origins, markup in what the pages show, and the headers of every answer, errors included.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, ORIGIN } from "../support/client";
import { createKey, createUser } from "../support/seed";
import { Browser, invitation, signedIn } from "./support";

const sessionCount = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM console_sessions WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

const keyCount = async (userId: number) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

function expectConsoleHeaders(headers: Headers) {
  expect(headers.get("content-security-policy")).toContain("script-src 'none'");
  expect(headers.get("cache-control")).toBe("no-store");
}

describe("the console under attack", () => {
  it("refuses a malformed multipart form with a 400 page, its CSP and no-store, changing nothing", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const response = await exports.default.fetch(`${ORIGIN}/console/keys`, {
      method: "POST",
      headers: {
        origin: ORIGIN,
        cookie: `__Host-session=${browser.cookie}`,
        "content-type": "multipart/form-data; boundary=zzz",
      },
      body: "--zzz\r\nnot a part at all",
    });
    expect(response.status).toBe(400);
    expectConsoleHeaders(response.headers);
    expect(await keyCount(user.id)).toBe(0);
  });

  it("answers an unknown console path and a refused post with its CSP and no-store", async () => {
    const browser = new Browser();
    expectConsoleHeaders((await browser.get("/console/nowhere")).headers);
    const refused = await browser.post("/console/sign-in", { email: "a@example.test" }, { origin: "null" });
    expect(refused.status).toBe(403);
    expectConsoleHeaders(refused.headers);
  });

  it("of two parallel posts of one link, exactly one signs in", async () => {
    const user = await createUser();
    const path = await invitation(user.id);
    const [a, b] = await Promise.all([new Browser().post(path), new Browser().post(path)]);
    expect([a.status, b.status].sort()).toEqual([303, 410]);
    expect(await sessionCount(user.id)).toBe(1);
  });

  it("counts parallel sign-in attempts for one address exactly (5 pass, the rest 429)", async () => {
    const email = `parallel-${crypto.randomUUID()}@example.test`;
    const answers = await Promise.all(
      Array.from({ length: 7 }, () => new Browser().post("/console/sign-in", { email })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });

  it("refuses look-alike origins", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf();
    const form = { name: "CI", abilities: ["posts"], csrf };
    for (const origin of [`${ORIGIN}.evil.example`, `${ORIGIN}/`, `${ORIGIN}:443`, ORIGIN.toUpperCase()])
      expect((await browser.post("/console/keys", form, { origin })).status, origin).toBe(403);
    expect(await keyCount(user.id)).toBe(0);
  });

  it("treats a forged or foreign-shard cookie as no session, and a GET changes nothing", async () => {
    for (const forged of [`s1_${"A".repeat(43)}`, `s8000_${"A".repeat(43)}`, `l_${"A".repeat(43)}`, "s_x"]) {
      const browser = new Browser();
      browser.cookie = forged;
      const res = await browser.get("/console/keys");
      expect(res.status, forged).toBe(303);
      expect(res.headers.get("location")).toBe("/console/sign-in");
    }
    const user = await createUser();
    const browser = await signedIn(user.id);
    const out = await browser.get("/console/sign-out");
    expect(out.status).toBeGreaterThanOrEqual(400);
    expect((await browser.get("/console/keys")).status).toBe(200);
  });

  it("answers 404 for another user's session and leaves it alone; a doubled csrf field is refused", async () => {
    const victim = await createUser();
    const there = await signedIn(victim.id);
    const id = (await env.DB.prepare("SELECT id FROM console_sessions WHERE user_id = ?")
      .bind(victim.id)
      .first<{ id: number }>())!.id;
    const browser = await signedIn((await createUser()).id);
    const csrf = await browser.csrf();
    expect((await browser.post(`/console/security/sessions/${id}/revoke`, { csrf })).status).toBe(404);
    expect((await browser.post("/console/sign-out", { csrf: [csrf, csrf] })).status).toBe(403);
    expect((await there.get("/console/keys")).status).toBe(200);
  });

  it("a crafted link path cannot aim its confirmation button, csrf field included, at another form", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    for (const crafted of ["..%2Fsign-out", "..%2F..%2Fconsole%2Fsign-out", "%2E%2E%2Fsign-out"]) {
      const page = await browser.get(`/console/sign-in/${crafted}`);
      for (const [, action] of page.html.matchAll(/<form method="post" action="([^"]*)"/g))
        expect(new URL(action!, ORIGIN).pathname, crafted).not.toBe("/console/sign-out");
    }
    expect((await browser.get("/console/keys")).status).toBe(200);
  });

  it("a sign-in as a user of another shard ends the session the browser held", async () => {
    const browser = await signedIn((await createUser()).id);
    const before = browser.cookie!;
    const path = await invitation((await createUser("Shard one", 1)).id);
    expect((await browser.post(path, { csrf: await browser.csrf(path) })).status).toBe(303);
    expect(browser.cookie).toMatch(/^s1_/);
    const stale = new Browser();
    stale.cookie = before;
    expect((await stale.get("/console/keys")).status).toBe(303);
  });

  it("gives sign-in links to the operator only: no token, a user's own API key or a session is a 401", async () => {
    const user = await createUser();
    const { key } = await createKey(user.id);
    const browser = await signedIn(user.id);
    const path = `/admin/v1/users/${user.id}/sign-in-links`;
    expect((await call("POST", path)).status).toBe(401);
    expect((await call("POST", path, { key })).status).toBe(401);
    expect((await browser.request("POST", path)).status).toBe(401);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_links WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(links!.n).toBe(1);
  });

  it("refuses an address carrying mail headers (422), storing no link", async () => {
    const user = await createUser();
    const email = (await env.DB.prepare("SELECT email FROM users WHERE id = ?")
      .bind(user.id)
      .first<{ email: string }>())!.email;
    for (const forged of [
      `${email}\r\nBcc: spy@evil.example`,
      `${email}\nSubject: hi`,
      `"a\r\nb"@example.test`,
    ])
      expect((await new Browser().post("/console/sign-in", { email: forged })).status, forged).toBe(422);
    const links = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_links WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(links!.n).toBe(0);
  });

  it("escapes key names and user agents", async () => {
    const user = await createUser();
    const browser = new Browser();
    const ua = `<img src=x onerror="alert(1)">`;
    const signIn = await browser.request("POST", await invitation(user.id), {
      headers: { "user-agent": ua },
    });
    expect(signIn.status).toBe(303);
    const csrf = await browser.csrf();
    const created = await browser.post("/console/keys", {
      name: `<script>alert(1)</script>"'`,
      abilities: ["posts"],
      csrf,
    });
    expect(created.status).toBe(200);
    expect(created.html).not.toContain("<script>");
    expect(created.html).toContain("&lt;script&gt;");
    const security = await browser.get("/console/security");
    expect(security.html).not.toContain("<img src=x");
    expect(security.html).toContain("&lt;img");
  });
});
