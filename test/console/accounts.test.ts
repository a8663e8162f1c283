// The console's accounts page: each workspace's accounts with their health and not another user's;
// connect and reconnect through the one OAuth flow (the sandbox's consent) back to this page; a flow
// whose console session ended meanwhile stores nothing; disconnect keeps the published history; another
// user's ids are 404 pages.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runFlow } from "../delegation/support";
import { ORIGIN } from "../support/client";
import { createAccount, createPost, createTenant, createUser, createWorkspace } from "../support/seed";
import { type Browser, signedIn } from "./support";

const PAGE = "/console/accounts";

/** The "Continue to …" link of the page a connect or reconnect answers. */
function continueLink(html: string) {
  const href = /<a href="([^"]+)" class="button primary">Continue to/.exec(html)?.[1];
  expect(href, html).toBeDefined();
  return href!.replaceAll("&amp;", "&");
}

/** Starts a connect from the page and runs the sandbox consent as `handle`: where the browser lands. */
async function connectFromConsole(
  browser: Browser,
  workspaceId: number,
  handle: string,
  platform = "twitter",
) {
  const csrf = await browser.csrf(PAGE);
  const started = await browser.post(`${PAGE}/connect`, {
    workspace_id: String(workspaceId),
    platform,
    csrf,
  });
  expect(started.status).toBe(200);
  const { landed } = await runFlow(continueLink(started.html), { handle });
  return landed;
}

const accountRow = (id: number) =>
  env.DB.prepare("SELECT workspace_id, username, disconnected_at FROM accounts WHERE id = ?")
    .bind(id)
    .first<{ workspace_id: number; username: string; disconnected_at: number | null }>();

describe("the accounts page", () => {
  it("lists each workspace's accounts with their health, and not another user's", async () => {
    const t = await createTenant({ name: "Health studio", timezone: "Europe/Paris" });
    const other = await createTenant({ name: "Elsewhere" });
    await env.DB.prepare(
      "UPDATE accounts SET expired_at = ?, last_error = ?, token_expires_at = ? WHERE id = ?",
    )
      .bind(
        Date.now(),
        JSON.stringify({ code: "invalid_grant", message: "The grant was revoked." }),
        Date.UTC(2030, 0, 1),
        t.accounts[1]!.id,
      )
      .run();
    const page = await (await signedIn(t.user.id)).get(PAGE);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Health studio");
    expect(page.html).not.toContain("Elsewhere");
    expect(page.html).toContain("Active");
    expect(page.html).toContain("Expired: reconnect it");
    expect(page.html).toContain("The grant was revoked.");
    // The token's expiry in the workspace's zone.
    expect(page.html).toContain("2030-01-01T01:00:00+01:00");
    expect(page.html).toContain(`action="/console/accounts/${t.accounts[0]!.id}/disconnect"`);
    expect(page.html).not.toContain(`/console/accounts/${other.accounts[0]!.id}/`);
    // The connect form offers the user's workspaces and the sandbox's platforms.
    expect(page.html).toContain(`<option value="${t.workspace.id}">Health studio</option>`);
    expect(page.html).not.toContain(`<option value="${other.workspace.id}">`);
    expect(page.html).toContain('<option value="twitter">');
  });

  it("connects an account through the sandbox consent and comes back to this page", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id, { name: "Connect studio" });
    const browser = await signedIn(user.id);
    const landed = await connectFromConsole(browser, workspace.id, "console_ada");
    expect(`${landed.origin}${landed.pathname}`).toBe(`${ORIGIN}${PAGE}`);
    expect(landed.searchParams.get("status")).toBe("connected");
    const accountId = Number(landed.searchParams.get("account_id"));
    const row = await accountRow(accountId);
    expect(row).toMatchObject({ workspace_id: workspace.id, username: "console_ada", disconnected_at: null });
    const back = await browser.get(`${landed.pathname}${landed.search}`);
    expect(back.status).toBe(200);
    expect(back.html).toContain("Connected: console_ada (X (Twitter)).");
    expect(back.html).toContain(`/console/accounts/${accountId}/reconnect`);
    // What the flow's return carries is not echoed: an error shows the page's own words only.
    const crafted = await browser.get(`${PAGE}?error=connection_failed&error_description=Call+555-0100`);
    expect(crafted.html).not.toContain("555-0100");
    expect(crafted.html).toContain("nothing was stored");
  });

  it("stores nothing when the console session that started the flow ended before it finished", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id);
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const started = await browser.post(`${PAGE}/connect`, {
      workspace_id: String(workspace.id),
      platform: "twitter",
      csrf,
    });
    expect((await browser.post("/console/sign-out", { csrf })).status).toBe(303);
    const { landed } = await runFlow(continueLink(started.html), { handle: "too_late" });
    expect(landed.pathname).toBe(PAGE);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toContain("console session");
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM accounts WHERE workspace_id = ?")
      .bind(workspace.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("reconnects an expired account: same id, active again", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id);
    const browser = await signedIn(user.id);
    const first = await connectFromConsole(browser, workspace.id, "console_grace");
    const accountId = Number(first.searchParams.get("account_id"));
    await env.DB.prepare("UPDATE accounts SET expired_at = ? WHERE id = ?").bind(Date.now(), accountId).run();
    expect((await browser.get(PAGE)).html).toContain("Expired: reconnect it");
    const csrf = await browser.csrf(PAGE);
    const started = await browser.post(`${PAGE}/${accountId}/reconnect`, { csrf });
    expect(started.status).toBe(200);
    expect(started.html).toContain("Continue to X");
    const { landed } = await runFlow(continueLink(started.html), { handle: "console_grace" });
    expect(landed.searchParams.get("status")).toBe("connected");
    expect(Number(landed.searchParams.get("account_id"))).toBe(accountId);
    const page = await browser.get(PAGE);
    expect(page.html).not.toContain("Expired: reconnect it");
  });

  it("disconnects an account and keeps its published posts; connect again is offered", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!;
    const post = await createPost(t);
    await env.DB.prepare("UPDATE post_platforms SET status = 'PUBLISHED', posted_on = ? WHERE post_id = ?")
      .bind(JSON.stringify([new Date().toISOString()]), post.id)
      .run();
    await env.DB.prepare("UPDATE posts SET status = 'PUBLISHED' WHERE id = ?").bind(post.id).run();
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf(PAGE);
    const gone = await browser.post(`${PAGE}/${account.id}/disconnect`, { csrf });
    expect(gone.status).toBe(303);
    expect(gone.headers.get("location")).toBe(PAGE);
    expect((await accountRow(account.id))!.disconnected_at).not.toBeNull();
    const rows = await env.DB.prepare(
      "SELECT status FROM post_platforms WHERE post_id = ? AND account_id = ?",
    )
      .bind(post.id, account.id)
      .all<{ status: string }>();
    expect(rows.results).toEqual([{ status: "PUBLISHED" }]);
    const page = await browser.get(PAGE);
    expect(page.html).not.toContain(`/console/accounts/${account.id}/disconnect`);
    expect(page.html).toContain("Disconnected (1)");
    // Disconnected: it is outside the lists, so a second disconnect or a reconnect is a 404.
    expect((await browser.post(`${PAGE}/${account.id}/disconnect`, { csrf })).status).toBe(404);
    expect((await browser.post(`${PAGE}/${account.id}/reconnect`, { csrf })).status).toBe(404);
  });

  it("answers another user's ids as absent ones (404), refuses bad input (422) and needs csrf", async () => {
    const user = await createUser();
    const mine = await createWorkspace(user.id);
    const other = await createTenant();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const foreign = other.accounts[0]!.id;
    for (const action of ["reconnect", "disconnect"]) {
      const theirs = await browser.post(`${PAGE}/${foreign}/${action}`, { csrf });
      const absent = await browser.post(`${PAGE}/999999999/${action}`, { csrf });
      expect(theirs.status).toBe(404);
      expect(absent.status).toBe(404);
      expect(theirs.html).toBe(absent.html);
    }
    expect((await accountRow(foreign))!.disconnected_at).toBeNull();
    const intoTheirs = await browser.post(`${PAGE}/connect`, {
      workspace_id: String(other.workspace.id),
      platform: "twitter",
      csrf,
    });
    expect(intoTheirs.status).toBe(404);
    const unknownPlatform = await browser.post(`${PAGE}/connect`, {
      workspace_id: String(mine.id),
      platform: "myspace",
      csrf,
    });
    expect(unknownPlatform.status).toBe(422);
    expect(
      (await browser.post(`${PAGE}/connect`, { workspace_id: "x", platform: "twitter", csrf })).status,
    ).toBe(422);
    const noCsrf = await browser.post(`${PAGE}/${(await createAccount(mine.id)).id}/disconnect`);
    expect(noCsrf.status).toBe(403);
  });
});
