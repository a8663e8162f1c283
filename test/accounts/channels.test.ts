// The channel step of a connect: platforms whose login is not where posts go list the channels the
// user can publish as (the sandbox: two Facebook Pages, a LinkedIn profile and organisation, one
// YouTube channel); with several, the service shows a page to pick from, bound to the browser that
// consented and single use.
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { flowCoordinator } from "../../src/coordinator/names";
import { decryptSecret } from "../../src/lib/crypto";
import { Browser, channelChoices, flowIdOf, formAction, locationOf, runFlow } from "../delegation/support";
import { call, ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";

const REDIRECT = "https://app.example.test/accounts/done";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

async function start(t: Tenant, platform: string) {
  const res = await call("POST", "/api/v1/accounts/connect", {
    key: t.key,
    body: { workspace_id: t.workspace.id, platform, redirect_url: REDIRECT },
  });
  expect(res.status).toBe(201);
  return res.body.authorize_url as string;
}

/** Runs the consent up to the channel page; answers the page, its form and the browser. */
async function toChannelPage(authorizeUrl: string, handle: string) {
  const browser = new Browser();
  const consent = locationOf(await browser.get(authorizeUrl));
  const action = formAction(await (await browser.get(consent)).text());
  const callback = locationOf(await browser.post(action, { handle, decision: "allow" }));
  const page = await browser.get(callback);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(page.headers.get("cache-control")).toBe("no-store");
  const html = await page.text();
  const flow = /<input type="hidden" name="flow" value="([^"]+)">/.exec(html)![1]!;
  return { browser, html, flow, action: formAction(html), choices: channelChoices(html) };
}

const accountRow = (id: number) =>
  env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Record<string, any>>();

const accountsIn = async (t: Tenant, platform: string) =>
  (
    await env.DB.prepare("SELECT id, username FROM accounts WHERE workspace_id = ? AND platform = ?")
      .bind(t.workspace.id, platform)
      .all<{ id: number; username: string }>()
  ).results;

/** Who the sandbox says a stored access token belongs to. */
async function tokenHandle(platform: string, encrypted: string) {
  const token = await decryptSecret(env.ENCRYPTION_KEY, encrypted);
  const res = await call("GET", `/sandbox/${platform}/me`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return res.body as Record<string, string>;
}

describe("connect: picking a channel", () => {
  it("Facebook: offers the user's Pages and stores the picked one with its own Page token", async () => {
    const t = await createTenant();
    const page = await toChannelPage(await start(t, "facebook"), "dora");
    expect(page.action).toBe("/api/oauth/delegate/callback");
    expect(page.choices.map((c) => c.label)).toEqual(["dora's Page", "dora's Shop"]);
    expect(page.html).toContain("Choose where to publish on Facebook");

    const picked = await page.browser.post(page.action, { flow: page.flow, channel: page.choices[1]!.id });
    const landed = new URL(locationOf(picked));
    expect(landed.searchParams.get("status")).toBe("connected");
    const row = await accountRow(Number(landed.searchParams.get("account_id")));
    expect(row).toMatchObject({
      username: "dora-shop",
      name: "dora's Shop",
      platform_user_id: page.choices[1]!.id,
      refresh_token_enc: null,
      token_expires_at: null,
    });
    // The stored token is the Page's, not the user's.
    expect((await tokenHandle("facebook", row!.access_token_enc)).name).toBe("dora-shop");
    // The flow's cookie is cleared after the pick.
    expect(picked.headers.getSetCookie().join()).toMatch(/Max-Age=0/);
  });

  it("LinkedIn: the member's profile or an organisation they administer (a Community Management app)", async () => {
    // Only a Community Management app lists pages (LINKEDIN_PRODUCTS; a member app stores the profile).
    const vars = env as unknown as Record<string, string | undefined>;
    const products = vars.LINKEDIN_PRODUCTS;
    vars.LINKEDIN_PRODUCTS = "community_management";
    try {
      const t = await createTenant();
      const { landed } = await runFlow(await start(t, "linkedin"), {
        handle: "lin",
        channel: (labels) => labels.indexOf("lin Inc."),
      });
      const row = await accountRow(Number(landed.searchParams.get("account_id")));
      expect(row).toMatchObject({ username: "lin-org", name: "lin Inc." });
    } finally {
      vars.LINKEDIN_PRODUCTS = products;
    }
  });

  it("YouTube: a single channel is stored without a page", async () => {
    const t = await createTenant();
    const { landed, steps } = await runFlow(await start(t, "youtube"), { handle: "tuber" });
    expect(steps.channelHtml).toBeUndefined();
    expect(landed.searchParams.get("status")).toBe("connected");
    expect((await accountRow(Number(landed.searchParams.get("account_id"))))?.username).toBe("tuber");
  });

  it("is single use: a second pick (a double click, a replay) stores nothing more", async () => {
    const t = await createTenant();
    const page = await toChannelPage(await start(t, "facebook"), "once");
    const form = { flow: page.flow, channel: page.choices[0]!.id };
    const [first, second] = await Promise.all([
      page.browser.post(page.action, form),
      page.browser.post(page.action, { ...form, channel: page.choices[1]!.id }),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([302, 400]);
    expect(await accountsIn(t, "facebook")).toHaveLength(1);
  });

  it("only the browser that consented can pick, and another's attempt does not spend the choice", async () => {
    const t = await createTenant();
    const page = await toChannelPage(await start(t, "facebook"), "bound");
    const form = { flow: page.flow, channel: page.choices[0]!.id };
    const stranger = await new Browser().post(page.action, form);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain("already made");
    const owner = await page.browser.post(page.action, form);
    expect(new URL(locationOf(owner)).searchParams.get("status")).toBe("connected");
  });

  it("refuses a channel that was not offered, back to the application with connection_failed", async () => {
    const t = await createTenant();
    const page = await toChannelPage(await start(t, "facebook"), "forger");
    const forged = await page.browser.post(page.action, { flow: page.flow, channel: "999999" });
    const landed = new URL(locationOf(forged));
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toContain("not one of those offered");
    expect(await accountsIn(t, "facebook")).toHaveLength(0);
  });

  it("drops an unpicked choice (and its tokens) when its 15 minutes are up", async () => {
    const t = await createTenant();
    const authorizeUrl = await start(t, "facebook");
    const page = await toChannelPage(authorizeUrl, "slow");
    const stub = env.COORDINATOR.getByName(flowCoordinator(flowIdOf(authorizeUrl)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const late = await page.browser.post(page.action, { flow: page.flow, channel: page.choices[0]!.id });
    expect(late.status).toBe(400);
    expect(await accountsIn(t, "facebook")).toHaveLength(0);
  });

  it("reconnecting and picking the same Page updates the same account", async () => {
    const t = await createTenant();
    const first = await runFlow(await start(t, "facebook"), { handle: "again" });
    const second = await runFlow(await start(t, "facebook"), { handle: "again" });
    expect(second.landed.searchParams.get("account_id")).toBe(first.landed.searchParams.get("account_id"));
    expect(await accountsIn(t, "facebook")).toHaveLength(1);
  });

  it("answers malformed picks with the invalid-link page, never a 500", async () => {
    const forms: Record<string, string>[] = [
      {},
      { flow: "x", channel: "1" },
      { flow: "A".repeat(22) },
      { channel: "1" },
    ];
    for (const form of forms) {
      const res = await new Browser().post(`${ORIGIN}/api/oauth/delegate/callback`, form);
      expect(res.status).toBe(400);
    }
  });
});
