// The console's webhooks page: create (the signing secret shown once), the URL rules' 422 page, roll,
// enable, delete, a test event and a redelivery, each through the REST API's own functions; another
// user's endpoint or delivery is a 404 and stays as it was.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import { waitFor } from "../support/wait";
import { signedIn } from "./support";

const shownValue = (html: string) =>
  /<output id="shown-value" class="secret">([^<]+)<\/output>/.exec(html)?.[1];

let hosts = 0;
const receiver = () => `https://hooks-console-${Date.now().toString(36)}-${hosts++}.example.test/hooks`;

/** A tenant signed in to the console, with one endpoint made through the page. */
async function withEndpoint() {
  const t = await createTenant();
  const browser = await signedIn(t.user.id);
  const csrf = await browser.csrf("/console/webhooks");
  const url = receiver();
  const created = await browser.post("/console/webhooks", {
    workspace_id: String(t.workspace.id),
    url,
    events: ["post.published", "post.failed"],
    csrf,
  });
  expect(created.status, created.html).toBe(200);
  const hooks = await call("GET", "/api/v1/webhooks", { key: t.key });
  const hook = hooks.body.data.find((h: { url: string }) => h.url === url);
  return { t, browser, csrf, url, hook, created };
}

const deliveries = async (key: string, id: number) =>
  (await call("GET", `/api/v1/webhooks/${id}/deliveries`, { key })).body.data as {
    id: number;
    event_type: string;
    status: string;
    attempts: unknown[];
    next_attempt_at: string | null;
  }[];

describe("the webhooks page", () => {
  it("creates an endpoint whose signing secret is shown once, and lists it", async () => {
    const { browser, url, hook, created } = await withEndpoint();
    const secret = shownValue(created.html)!;
    expect(secret).toMatch(/^whsec_/);
    expect(hook.events).toEqual(["post.published", "post.failed"]);
    const page = await browser.get("/console/webhooks");
    expect(page.html).toContain(url);
    expect(page.html).toContain("post.published, post.failed");
    expect(page.html).not.toContain(secret);
    expect(page.html).toContain('name="events" value="post.partially_published"');
  });

  it("refuses a private-address URL, a missing event and a foreign workspace with a 422 page", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf("/console/webhooks");
    const form = { workspace_id: String(t.workspace.id), events: ["post.published"], csrf };
    const privateUrl = await browser.post("/console/webhooks", { ...form, url: "https://10.0.0.7/hooks" });
    expect(privateUrl.status).toBe(422);
    expect(privateUrl.html).toContain('role="alert"');
    expect(privateUrl.html).toContain("public http or https URL");
    const noEvents = await browser.post("/console/webhooks", { ...form, events: [], url: receiver() });
    expect(noEvents.status).toBe(422);
    const foreign = await browser.post("/console/webhooks", {
      ...form,
      workspace_id: String(other.workspace.id),
      url: receiver(),
    });
    expect(foreign.status).toBe(404);
    expect((await call("GET", "/api/v1/webhooks", { key: t.key })).body.data).toEqual([]);
    expect((await call("GET", "/api/v1/webhooks", { key: other.key })).body.data).toEqual([]);
  });

  it("rolls the secret (shown once, logged), enables and deletes", async () => {
    const { t, browser, csrf, hook, url } = await withEndpoint();
    const rolled = await browser.post(`/console/webhooks/${hook.id}/roll-secret`, { csrf });
    expect(rolled.status).toBe(200);
    expect(shownValue(rolled.html)).toMatch(/^whsec_/);
    expect((await browser.get("/console/security")).html).toContain(
      `<strong>Webhook secret rolled</strong>: ${url}`,
    );
    await env.DB.prepare(
      "UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = 'every attempt failed' WHERE id = ?",
    )
      .bind(Date.now(), hook.id)
      .run();
    expect((await browser.get("/console/webhooks")).html).toContain("every attempt failed");
    expect((await browser.post(`/console/webhooks/${hook.id}/enable`, { csrf })).status).toBe(303);
    expect((await call("GET", `/api/v1/webhooks/${hook.id}`, { key: t.key })).body.status).toBe("enabled");
    expect((await browser.post(`/console/webhooks/${hook.id}/delete`, { csrf })).status).toBe(303);
    expect((await call("GET", `/api/v1/webhooks/${hook.id}`, { key: t.key })).status).toBe(404);
  });

  it("sends a test event and redelivers a settled delivery", async () => {
    const { t, browser, csrf, hook } = await withEndpoint();
    const sent = await browser.post(`/console/webhooks/${hook.id}/test`, { csrf });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toBe(`/console/webhooks/${hook.id}`);
    const [delivery] = await deliveries(t.key, hook.id);
    expect(delivery!.event_type).toBe("webhook.test");
    const page = await browser.get(`/console/webhooks/${hook.id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("webhook.test");

    // The receiver is unreachable here: once the first attempt has failed and its retry waits, the
    // delivery is settled by hand, as the last attempt would.
    await waitFor(
      async () => {
        const found = (await deliveries(t.key, hook.id))[0]!;
        return found.attempts.length > 0 && found.next_attempt_at !== null;
      },
      { timeout: 15_000, what: "the first attempt" },
    );
    await env.DB.prepare(
      "UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = ?",
    )
      .bind(delivery!.id)
      .run();
    expect((await browser.get(`/console/webhooks/${hook.id}`)).html).toContain(
      `aria-label="Redeliver delivery ${delivery!.id}"`,
    );
    const again = await browser.post(`/console/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver`, {
      csrf,
    });
    expect(again.status).toBe(303);
    const row = await env.DB.prepare("SELECT status, attempts FROM webhook_deliveries WHERE id = ?")
      .bind(delivery!.id)
      .first<{ status: string; attempts: number }>();
    expect(row!.status).not.toBe("failed");
    // A pending delivery is a 409, as in the API.
    await env.DB.prepare("UPDATE webhook_deliveries SET status = 'pending' WHERE id = ?")
      .bind(delivery!.id)
      .run();
    expect(
      (await browser.post(`/console/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver`, { csrf }))
        .status,
    ).toBe(409);
  });

  it("answers 404 for another user's endpoint and delivery, and leaves them alone", async () => {
    const victim = await withEndpoint();
    await victim.browser.post(`/console/webhooks/${victim.hook.id}/test`, { csrf: victim.csrf });
    const [delivery] = await deliveries(victim.t.key, victim.hook.id);
    const t = await createTenant();
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf("/console/webhooks");
    expect((await browser.get(`/console/webhooks/${victim.hook.id}`)).status).toBe(404);
    expect((await browser.get("/console/webhooks/999999999")).status).toBe(404);
    for (const action of ["roll-secret", "enable", "test", "delete", `deliveries/${delivery!.id}/redeliver`])
      expect((await browser.post(`/console/webhooks/${victim.hook.id}/${action}`, { csrf })).status).toBe(
        404,
      );
    // Their own endpoint, the victim's delivery id: 404 too.
    const own = await call("POST", "/api/v1/webhooks", {
      key: t.key,
      body: { workspace_id: t.workspace.id, url: receiver(), events: ["post.published"] },
    });
    expect(
      (await browser.post(`/console/webhooks/${own.body.id}/deliveries/${delivery!.id}/redeliver`, { csrf }))
        .status,
    ).toBe(404);
    expect((await call("GET", `/api/v1/webhooks/${victim.hook.id}`, { key: victim.t.key })).status).toBe(200);
    expect((await browser.get("/console/webhooks")).html).not.toContain(victim.url);
  });

  it("changes nothing without the csrf field", async () => {
    const { t, browser, hook } = await withEndpoint();
    expect((await browser.post(`/console/webhooks/${hook.id}/delete`)).status).toBe(403);
    const refused = await browser.post("/console/webhooks", {
      workspace_id: String(t.workspace.id),
      url: receiver(),
      events: ["post.published"],
    });
    expect(refused.status).toBe(403);
    expect((await call("GET", "/api/v1/webhooks", { key: t.key })).body.data).toHaveLength(1);
  });
});
