// The console's workspaces page: the user's workspaces and not another's, create one (the zone rule of
// the operator API), change a zone, add a member by address (same shard only, one answer for an unknown
// address and one in another shard), remove one (never the last), another user's ids as 404 pages.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAccount, createUser, createWorkspace } from "../support/seed";
import { signedIn } from "./support";

const PAGE = "/console/workspaces";

/** A user made by the operator API, with the address it answered. */
const userWithEmail = async (name?: string, shard?: number) =>
  (await createUser(name, shard)) as { id: number; email: string };

const members = async (workspaceId: number) =>
  (
    await env.DB.prepare("SELECT user_id FROM workspace_members WHERE workspace_id = ? ORDER BY user_id")
      .bind(workspaceId)
      .all<{ user_id: number }>()
  ).results.map((r) => r.user_id);

describe("the workspaces page", () => {
  it("lists the user's workspaces with zone, members and accounts count, and not another user's", async () => {
    const user = await createUser("Ada Owner");
    const other = await createUser();
    const mine = await createWorkspace(user.id, { name: "Ada's studio", timezone: "Europe/Paris" });
    await createAccount(mine.id);
    await createAccount(mine.id, "threads");
    await createWorkspace(other.id, { name: "Someone else's" });
    const browser = await signedIn(user.id);
    const page = await browser.get(PAGE);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Ada&#39;s studio");
    expect(page.html).toContain("Europe/Paris");
    expect(page.html).toContain("2 connected");
    expect(page.html).toContain("Ada Owner");
    expect(page.html).not.toContain("Someone else");
    expect(page.html).toContain('aria-current="page"');
  });

  it("creates a workspace with a valid zone, and answers a 422 page for an unknown zone or no name", async () => {
    const user = await createUser();
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const created = await browser.post(PAGE, { name: "Launch team", timezone: "America/New_York", csrf });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(PAGE);
    const row = await env.DB.prepare(
      "SELECT w.name, w.timezone FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id WHERE m.user_id = ?",
    )
      .bind(user.id)
      .first<{ name: string; timezone: string }>();
    expect(row).toEqual({ name: "Launch team", timezone: "America/New_York" });

    const badZone = await browser.post(PAGE, { name: "x", timezone: "Mars/Olympus", csrf });
    expect(badZone.status).toBe(422);
    expect(badZone.html).toContain("valid IANA time zone");
    const noName = await browser.post(PAGE, { name: "  ", timezone: "UTC", csrf });
    expect(noName.status).toBe(422);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM workspace_members WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(1);
  });

  it("changes a workspace's zone, refuses an invalid one, and 404s another user's workspace", async () => {
    const user = await createUser();
    const other = await createUser();
    const mine = await createWorkspace(user.id);
    const theirs = await createWorkspace(other.id, { timezone: "Asia/Tokyo" });
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const changed = await browser.post(`${PAGE}/${mine.id}/timezone`, { timezone: "Australia/Sydney", csrf });
    expect(changed.status).toBe(303);
    const read = (id: number) =>
      env.DB.prepare("SELECT timezone FROM workspaces WHERE id = ?").bind(id).first<{ timezone: string }>();
    expect((await read(mine.id))!.timezone).toBe("Australia/Sydney");
    expect((await browser.post(`${PAGE}/${mine.id}/timezone`, { timezone: "Nowhere", csrf })).status).toBe(
      422,
    );
    const foreign = await browser.post(`${PAGE}/${theirs.id}/timezone`, { timezone: "UTC", csrf });
    const absent = await browser.post(`${PAGE}/999999999/timezone`, { timezone: "UTC", csrf });
    expect(foreign.status).toBe(404);
    expect(absent.status).toBe(404);
    expect(foreign.html).toBe(absent.html);
    expect((await read(theirs.id))!.timezone).toBe("Asia/Tokyo");
    expect((await browser.post(`${PAGE}/abc/timezone`, { timezone: "UTC", csrf })).status).toBe(404);
  });

  it("adds a member by address, lists them, removes them, and never removes the last member", async () => {
    const user = await createUser();
    const colleague = await userWithEmail("Grace Colleague");
    const mine = await createWorkspace(user.id);
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const { email } = colleague;
    const added = await browser.post(`${PAGE}/${mine.id}/members`, { email: email.toUpperCase(), csrf });
    expect(added.status).toBe(303);
    expect(await members(mine.id)).toEqual([user.id, colleague.id].sort((a, b) => a - b));
    // The colleague now sees the workspace too.
    const theirView = await (await signedIn(colleague.id)).get(PAGE);
    expect(theirView.html).toContain(email);
    const listed = await browser.get(PAGE);
    expect(listed.html).toContain("Grace Colleague");
    expect(listed.html).toContain(`aria-label="Remove ${email} from`);

    const removed = await browser.post(`${PAGE}/${mine.id}/members/${colleague.id}/remove`, { csrf });
    expect(removed.status).toBe(303);
    expect(await members(mine.id)).toEqual([user.id]);
    const last = await browser.post(`${PAGE}/${mine.id}/members/${user.id}/remove`, { csrf });
    expect(last.status).toBe(422);
    expect(last.html).toContain("last member");
    expect(await members(mine.id)).toEqual([user.id]);
    // Not a member (any more): the same 404 as an absent one.
    const gone = await browser.post(`${PAGE}/${mine.id}/members/${colleague.id}/remove`, { csrf });
    expect(gone.status).toBe(404);
  });

  it("answers the same for an unknown address and a user in another shard, and adds neither", async () => {
    const user = await createUser();
    const elsewhere = await userWithEmail("Other shard", 1);
    const mine = await createWorkspace(user.id);
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const otherShard = await browser.post(`${PAGE}/${mine.id}/members`, {
      email: elsewhere.email,
      csrf,
    });
    const unknown = await browser.post(`${PAGE}/${mine.id}/members`, { email: "nobody@example.test", csrf });
    expect(otherShard.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(otherShard.html).toContain("same database (shard)");
    const message = (html: string) => /<div class="error" role="alert">(.*?)<\/div>/.exec(html)?.[1];
    expect(message(otherShard.html)).toBe(message(unknown.html));
    expect(await members(mine.id)).toEqual([user.id]);
    expect((await browser.post(`${PAGE}/${mine.id}/members`, { email: "not an address", csrf })).status).toBe(
      422,
    );
  });

  it("404s member changes on another user's workspace, and changes nothing without csrf", async () => {
    const user = await userWithEmail();
    const other = await createUser();
    const theirs = await createWorkspace(other.id);
    const browser = await signedIn(user.id);
    const csrf = await browser.csrf(PAGE);
    const add = await browser.post(`${PAGE}/${theirs.id}/members`, { email: user.email, csrf });
    expect(add.status).toBe(404);
    const remove = await browser.post(`${PAGE}/${theirs.id}/members/${other.id}/remove`, { csrf });
    expect(remove.status).toBe(404);
    expect(await members(theirs.id)).toEqual([other.id]);

    const mine = await createWorkspace(user.id);
    expect((await browser.post(PAGE, { name: "No csrf", timezone: "UTC" })).status).toBe(403);
    const foreignOrigin = await browser.post(
      `${PAGE}/${mine.id}/timezone`,
      { timezone: "Asia/Tokyo", csrf },
      { origin: "https://evil.example" },
    );
    expect(foreignOrigin.status).toBe(403);
    const zone = await env.DB.prepare("SELECT timezone FROM workspaces WHERE id = ?")
      .bind(mine.id)
      .first<{ timezone: string }>();
    expect(zone!.timezone).toBe("UTC");
  });
});
