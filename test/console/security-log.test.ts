// The security page's log of key and secret events: the console's changes (this browser or another
// session), the operator API's and the API's appear with their actor; another user's never do; an event
// is written in the batch of its change, so neither lands without the other.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call } from "../support/client";
import { createKey, createTenant, createUser } from "../support/seed";
import { signedIn } from "./support";

/** The log's entries as text, newest first. */
async function logOf(browser: Awaited<ReturnType<typeof signedIn>>) {
  const page = await browser.get("/console/security");
  expect(page.status).toBe(200);
  const section = page.html.split('id="security-log"')[1] ?? "";
  return [
    ...section.matchAll(/<li><strong>([^<]+)<\/strong>: ([^<]*)<br\/?>.*?by ([^<]+)<\/span><\/li>/g),
  ].map((match) => `${match[1]}: ${match[2]} by ${match[3]}`);
}

describe("the security log", () => {
  it("lists the console's and the operator API's key events with their actor, newest first", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const other = await signedIn(user.id);
    const csrf = await browser.csrf();
    const otherCsrf = await other.csrf();

    const created = await browser.post("/console/keys", { name: "Console key", abilities: ["posts"], csrf });
    expect(created.status).toBe(200);
    const keyId = (await env.DB.prepare("SELECT id, key_prefix FROM api_keys WHERE user_id = ?")
      .bind(user.id)
      .first<{ id: number; key_prefix: string }>())!;
    expect((await other.post(`/console/keys/${keyId.id}/signing-secret`, { csrf: otherCsrf })).status).toBe(
      200,
    );
    expect(
      (
        await admin("PUT", `/api-keys/${keyId.id}/callback-origins`, {
          callback_origins: ["https://a.example"],
        })
      ).status,
    ).toBe(200);
    const operatorKey = await createKey(user.id);
    expect((await admin("POST", `/api-keys/${operatorKey.id}/roll`)).status).toBe(201);
    expect((await browser.post(`/console/keys/${keyId.id}/revoke`, { csrf })).status).toBe(303);

    const log = await logOf(browser);
    const key = `Console key (${keyId.key_prefix}…)`;
    expect(log).toEqual([
      `Key revoked: ${key} by console (this browser, unknown browser)`,
      expect.stringMatching(/^Key rolled: API key \(spk_[^)]+…\) by operator API$/),
      expect.stringMatching(/^Key created: API key \(spk_[^)]+…\) by operator API$/),
      `Callback origins changed: ${key} by operator API`,
      `Signing secret generated: ${key} by console (another session, unknown browser)`,
      `Key created: ${key} by console (this browser, unknown browser)`,
    ]);
    // Seen from the other session, "this browser" is the other one.
    expect((await logOf(other))[0]).toBe(`Key revoked: ${key} by console (another session, unknown browser)`);
  });

  it("names the browser's user agent, and a webhook secret rolled through the API", async () => {
    const t = await createTenant();
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf();
    const res = await browser.request("POST", `/console/keys/${t.keyId}/signing-secret`, {
      form: { csrf },
      headers: { "user-agent": "Firefox/140 <test>" },
    });
    expect(res.status).toBe(200);
    const hook = await call("POST", "/api/v1/webhooks", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        url: "https://hooks.example.test/log",
        events: ["post.published"],
      },
    });
    expect(hook.status).toBe(201);
    expect((await call("POST", `/api/v1/webhooks/${hook.body.id}/roll-secret`, { key: t.key })).status).toBe(
      200,
    );
    const log = await logOf(browser);
    expect(log[0]).toBe("Webhook secret rolled: https://hooks.example.test/log by API");
    expect(log[1]).toMatch(
      /^Signing secret generated: API key \(spk_[^)]+…\) by console \(this browser, Firefox\/140 &lt;test&gt;\)$/,
    );
  });

  it("never shows another user's events", async () => {
    const victim = await createUser();
    const { id } = await createKey(victim.id);
    expect((await admin("POST", `/api-keys/${id}/signing-secret`)).status).toBe(201);
    const browser = await signedIn((await createUser()).id);
    expect(await logOf(browser)).toEqual([]);
    expect((await browser.get("/console/security")).html).toContain("No events yet.");
  });

  it("writes the event in the batch of the change: a refused event leaves the key unchanged", async () => {
    const user = await createUser();
    const tag = `boom-${crypto.randomUUID().slice(0, 8)}`;
    const { id } = (
      await admin<{ id: number }>("POST", "/api-keys", { user_id: user.id, name: tag, abilities: ["posts"] })
    ).body;
    await env.DB.prepare(
      `CREATE TRIGGER "${tag}" BEFORE INSERT ON security_events WHEN NEW.label LIKE '${tag}%' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    ).run();
    try {
      const res = await admin("PUT", `/api-keys/${id}/callback-origins`, {
        callback_origins: ["https://a.example"],
      });
      expect(res.status).toBe(500);
    } finally {
      await env.DB.prepare(`DROP TRIGGER "${tag}"`).run();
    }
    const row = await env.DB.prepare("SELECT callback_origins FROM api_keys WHERE id = ?")
      .bind(id)
      .first<{ callback_origins: string | null }>();
    expect(JSON.parse(row!.callback_origins ?? "[]")).toEqual([]);
    const events = await env.DB.prepare("SELECT kind FROM security_events WHERE user_id = ? ORDER BY id")
      .bind(user.id)
      .all<{ kind: string }>();
    expect(events.results.map((event) => event.kind)).toEqual(["key_created"]);
  });
});
