// The console's API keys page: create (shown once), the key works against the API, roll, revoke, the
// signing secret, callback origins, and another user's key id answered as unknown.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createKey, createUser } from "../support/seed";
import { signedIn } from "./support";

const shownValue = (html: string) =>
  /<output id="shown-value" class="secret">([^<]+)<\/output>/.exec(html)?.[1];

describe("the API keys page", () => {
  it("creates a key shown once, which works against /api/v1/me, and lists it by prefix", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf();
    const created = await browser.post("/console/keys", {
      name: "Console key",
      abilities: ["posts", "labels"],
      expires_at: "2099-01-01T12:00",
      csrf,
    });
    expect(created.status).toBe(200);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const key = shownValue(created.html)!;
    expect(key).toMatch(/^spk_/);
    const me = await call("GET", "/api/v1/me", { key });
    expect(me.status).toBe(200);
    const row = await env.DB.prepare("SELECT abilities, expires_at FROM api_keys WHERE user_id = ?")
      .bind(user.id)
      .first<{ abilities: string; expires_at: number }>();
    expect(JSON.parse(row!.abilities)).toEqual(["posts", "labels"]);
    expect(row!.expires_at).toBe(Date.parse("2099-01-01T12:00:00Z"));
    const list = await browser.get("/console/keys");
    expect(list.html).toContain(key.slice(0, 12));
    expect(list.html).not.toContain(key);
    expect(list.html).toContain("Console key");
  });

  it("offers one checkbox per ability and refuses an unknown one (422)", async () => {
    const browser = await signedIn((await createUser()).id);
    const page = await browser.get("/console/keys");
    for (const ability of ["posts", "workspaces", "accounts", "labels", "approvals"])
      expect(page.html).toContain(`name="abilities" value="${ability}"`);
    const refused = await browser.post("/console/keys", {
      name: "x",
      abilities: ["root"],
      csrf: await browser.csrf(),
    });
    expect(refused.status).toBe(422);
  });

  it("rolls, regenerates the signing secret, sets callback origins and revokes", async () => {
    const user = await createUser();
    const { id, key } = await createKey(user.id);
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf();
    const rolled = await browser.post(`/console/keys/${id}/roll`, { csrf });
    expect(rolled.status).toBe(200);
    const newKey = shownValue(rolled.html)!;
    expect((await call("GET", "/api/v1/me", { key })).status).toBe(401);
    expect((await call("GET", "/api/v1/me", { key: newKey })).status).toBe(200);
    const newId = (await env.DB.prepare("SELECT id FROM api_keys WHERE user_id = ?")
      .bind(user.id)
      .first<{ id: number }>())!.id;

    const secret = await browser.post(`/console/keys/${newId}/signing-secret`, { csrf });
    expect(shownValue(secret.html)).toMatch(/^sps_/);

    const origins = await browser.post(`/console/keys/${newId}/callback-origins`, {
      callback_origins: "https://app.example.com\nhttps://other.example.com",
      csrf,
    });
    expect(origins.status).toBe(303);
    expect((await browser.get("/console/keys")).html).toContain(
      "https://app.example.com, https://other.example.com",
    );

    expect((await browser.post(`/console/keys/${newId}/revoke`, { csrf })).status).toBe(303);
    expect((await call("GET", "/api/v1/me", { key: newKey })).status).toBe(401);
  });

  it("answers 404 for another user's key and leaves it alone", async () => {
    const victim = await createUser();
    const { id, key } = await createKey(victim.id);
    const browser = await signedIn((await createUser()).id);
    const csrf = await browser.csrf();
    for (const action of ["roll", "revoke", "signing-secret", "callback-origins"])
      expect((await browser.post(`/console/keys/${id}/${action}`, { csrf })).status).toBe(404);
    expect((await call("GET", "/api/v1/me", { key })).status).toBe(200);
  });
});
