// The console's posts pages: the list (the REST list's filters and cursor), retry and delete through the
// REST routes' rules, another user's post answered as unknown, and the week calendar in the workspace's
// zone across a DST change.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { d1Of, publishRows } from "../support/db";
import { createPost, createTenant, inMinutes } from "../support/seed";
import { signedIn } from "./support";

/** A post the publisher failed on its account, with the platform's message. */
async function fail(postId: number) {
  const d1 = d1Of(postId);
  await d1.batch([
    d1.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(postId),
    d1
      .prepare(
        `UPDATE post_platforms SET status = 'FAILED', attempts = 1, error = '{"code":"content_rejected","message":"The platform refused it."}' WHERE post_id = ?`,
      )
      .bind(postId),
  ]);
}

const statusOf = async (t: { key: string }, id: number) =>
  (await call("GET", `/api/v1/posts/${id}`, { key: t.key })).body.status as string;

describe("the posts page", () => {
  it("lists the user's posts newest first with their targets, and nobody else's", async () => {
    const t = await createTenant({ timezone: "America/New_York" });
    const other = await createTenant();
    const older = await createPost(t, { content: [{ text: "The older post" }], scheduled_at: inMinutes(60) });
    const newer = await createPost(t, { content: [{ text: "The newer post" }] });
    const theirs = await createPost(other, { content: [{ text: "Someone else's post" }] });
    await fail(older.id);
    await publishRows(newer.id, {}, Date.now());
    // A link the platform gave that is no web address is not made a link.
    await d1Of(older.id)
      .prepare("UPDATE post_platforms SET post_url = 'javascript:alert(1)' WHERE post_id = ?")
      .bind(older.id)
      .run();
    const browser = await signedIn(t.user.id);
    const page = await browser.get("/console/posts");
    expect(page.status).toBe(200);
    expect(page.html.indexOf("The newer post")).toBeGreaterThan(-1);
    expect(page.html.indexOf("The newer post")).toBeLessThan(page.html.indexOf("The older post"));
    expect(page.html).not.toContain("Someone else&#39;s post");
    expect(page.html).not.toContain(`Post #${theirs.id}`);
    // The time in the workspace's zone with its offset, the row's status and the platform's message.
    expect(page.html).toContain(
      `${older.scheduled_at.slice(0, 10)} ${older.scheduled_at.slice(11, 16)} UTC-0`,
    );
    expect(page.html).toContain("America/New_York");
    expect(page.html).toContain("The platform refused it.");
    expect(page.html).toContain(`aria-label="Retry post #${older.id}"`);
    expect(page.html).not.toContain(`aria-label="Retry post #${newer.id}"`);
    expect(page.html).toMatch(/<a href="https:\/\/x\.example\/\d+" class="url">/);
    expect(page.html).not.toContain("javascript:");
  });

  it("filters as the REST list does, pages by cursor, and answers bad filters with a 422 page", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const draft = await createPost(t, { content: [{ text: "A draft" }] });
    const scheduled = await createPost(t, {
      content: [{ text: "Scheduled in 2030" }],
      scheduled_at: "2030-06-01T23:30:00+02:00",
    });
    const browser = await signedIn(t.user.id);
    const byStatus = await browser.get("/console/posts?status=SCHEDULED&workspace_id=&account_id=");
    expect(byStatus.status).toBe(200);
    expect(byStatus.html).toContain("Scheduled in 2030");
    expect(byStatus.html).not.toContain("A draft");
    expect(byStatus.html).toContain('<option value="SCHEDULED" selected="">');
    // Dates are local days of the workspace's zone: 23:30 in Paris on 1 June is 21:30Z on that day.
    const day = await browser.get(
      `/console/posts?workspace_id=${t.workspace.id}&scheduled_from=2030-06-01&scheduled_to=2030-06-01`,
    );
    expect(day.html).toContain("Scheduled in 2030");
    const nextDay = await browser.get(
      `/console/posts?workspace_id=${t.workspace.id}&scheduled_from=2030-06-02`,
    );
    expect(nextDay.html).not.toContain("Scheduled in 2030");
    // A cursor page: below the newer post, only the older one.
    const first = await browser.get("/console/posts?per_page=1");
    expect(first.html).toContain(`Post #${scheduled.id}`);
    expect(first.html).toContain(`href="/console/posts?per_page=1&amp;page=2&amp;before_id=${scheduled.id}"`);
    const second = await browser.get(`/console/posts?per_page=1&page=2&before_id=${scheduled.id}`);
    expect(second.html).toContain(`Post #${draft.id}`);
    expect(second.html).not.toContain(`Post #${scheduled.id}`);
    for (const bad of [
      "status=LOST",
      "scheduled_from=2030-02-30",
      "scheduled_from=2030-06-02&scheduled_to=2030-06-01",
      "colour=red",
    ]) {
      const refused = await browser.get(`/console/posts?${bad}`);
      expect(refused.status, bad).toBe(422);
      expect(refused.html).toContain('role="alert"');
    }
  });

  it("retries a failed post (only its failed rows) and refuses one with nothing to retry (409)", async () => {
    const t = await createTenant();
    const post = await createPost(t, { scheduled_at: inMinutes(60) });
    await fail(post.id);
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf("/console/posts");
    const retried = await browser.post(`/console/posts/${post.id}/retry`, { csrf });
    expect(retried.status).toBe(303);
    expect(retried.headers.get("location")).toBe("/console/posts");
    expect(await statusOf(t, post.id)).not.toBe("FAILED");
    const scheduled = await createPost(t, { scheduled_at: inMinutes(60) });
    const nothing = await browser.post(`/console/posts/${scheduled.id}/retry`, { csrf });
    expect(nothing.status).toBe(409);
    expect(nothing.html).toContain("Nothing to retry");
  });

  it("deletes a post after the confirmation, only with the csrf field and the service's origin", async () => {
    const t = await createTenant();
    const post = await createPost(t);
    const browser = await signedIn(t.user.id);
    const page = await browser.get("/console/posts");
    expect(page.html).toContain(`<summary>Delete post #${post.id}</summary>`);
    const csrf = await browser.csrf("/console/posts");
    expect((await browser.post(`/console/posts/${post.id}/delete`)).status).toBe(403);
    expect(
      (await browser.post(`/console/posts/${post.id}/delete`, { csrf }, { origin: "https://evil.example" }))
        .status,
    ).toBe(403);
    expect(await statusOf(t, post.id)).toBe("DRAFT");
    const deleted = await browser.post(`/console/posts/${post.id}/delete`, { csrf });
    expect(deleted.status).toBe(303);
    expect((await call("GET", `/api/v1/posts/${post.id}`, { key: t.key })).status).toBe(404);
  });

  it("answers another user's post id, or an id that is none, with the same 404 page, changing nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const theirs = await createPost(other);
    await fail(theirs.id);
    const browser = await signedIn(t.user.id);
    const csrf = await browser.csrf("/console/posts");
    for (const path of [`${theirs.id}/retry`, `${theirs.id}/delete`, "999999999/delete", "abc/retry"]) {
      const refused = await browser.post(`/console/posts/${path}`, { csrf });
      expect(refused.status, path).toBe(404);
      expect(refused.html).toContain("Post not found.");
    }
    expect(await statusOf(other, theirs.id)).toBe("FAILED");
    const calendar = await browser.get(`/console/posts/calendar?workspace_id=${other.workspace.id}`);
    expect(calendar.status).toBe(404);
  });
});

describe("the week calendar", () => {
  it("places 23:30 local of a 25-hour Sunday (DST ends) on that Sunday of its week, not the next", async () => {
    // 31 October 2027, Paris: clocks go back at 03:00; 23:30 is +01:00, 22:30Z, past Monday 00:00
    // (+02:00) plus 7 × 24 h.
    const t = await createTenant({ timezone: "Europe/Paris" });
    const post = await createPost(t, {
      content: [{ text: "Late on the long Sunday" }],
      scheduled_at: "2027-10-31T23:30:00+01:00",
    });
    const browser = await signedIn(t.user.id);
    const week = await browser.get(`/console/posts/calendar?workspace_id=${t.workspace.id}&week=2027-W43`);
    expect(week.status).toBe(200);
    const sunday = week.html.indexOf("Sunday 31 October");
    expect(sunday).toBeGreaterThan(-1);
    const shown = week.html.indexOf(`(post #${post.id})`);
    expect(shown).toBeGreaterThan(sunday);
    expect(week.html.slice(sunday, shown)).toContain(
      '<time datetime="2027-10-31T23:30:00+01:00">23:30</time>',
    );
    expect(week.html).toContain(
      `href="/console/posts/calendar?workspace_id=${t.workspace.id}&amp;week=2027-W44"`,
    );
    const next = await browser.get(`/console/posts/calendar?workspace_id=${t.workspace.id}&week=2027-W44`);
    expect(next.html).not.toContain("Late on the long Sunday");
    // Seven days from a start date find it too.
    const fromStart = await browser.get(
      `/console/posts/calendar?workspace_id=${t.workspace.id}&start=2027-10-28`,
    );
    expect(fromStart.html).toContain("Late on the long Sunday");
    expect(fromStart.html).toContain("&amp;start=2027-11-04");
  });

  it("shows this week of the first workspace with today marked, and refuses a week that is none (422)", async () => {
    const t = await createTenant();
    const browser = await signedIn(t.user.id);
    const page = await browser.get("/console/posts/calendar");
    expect(page.status).toBe(200);
    expect(page.html).toContain('aria-current="date"');
    expect(page.html.match(/class="day/g)).toHaveLength(7);
    const refused = await browser.get(`/console/posts/calendar?workspace_id=${t.workspace.id}&week=2027-W60`);
    expect(refused.status).toBe(422);
    expect(refused.html).toContain("The week must be an ISO week");
  });

  it("shows the queues' free slots in the workspace's zone, without the one a queued post took", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const account = t.accounts[0]!.id;
    const every = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time: "09:00" }));
    // The account's queue keeps New York's wall clock: 09:00 there is 15:00 in Paris (14:00 for a week
    // or so around the changes of March and October/November).
    const put = await call("PUT", `/api/v1/accounts/${account}/queue`, {
      key: t.key,
      body: { slots: every, timezone: "America/New_York" },
    });
    expect(put.status).toBe(200);
    const slots = (await call("GET", `/api/v1/accounts/${account}/queue/slots?count=3`, { key: t.key })).body
      .data as string[];
    const post = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: { workspace_id: t.workspace.id, accounts: [account], content: [{ text: "Queued" }], queue: true },
    });
    expect(post.status).toBe(201);
    const paris = (iso: string) =>
      new Intl.DateTimeFormat("sv-SE", {
        timeZone: "Europe/Paris",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
      })
        .format(new Date(iso))
        .replace(" ", "T");
    const [taken, free] = [paris(slots[0]!), paris(slots[1]!)];
    const browser = await signedIn(t.user.id);
    const page = await browser.get(
      `/console/posts/calendar?workspace_id=${t.workspace.id}&start=${taken.slice(0, 10)}`,
    );
    expect(page.status).toBe(200);
    const username = (await call("GET", `/api/v1/accounts/${account}`, { key: t.key })).body.username;
    const freeSlot = new RegExp(
      `<time datetime="${free}:00[+-]\\d\\d:\\d\\d">${free.slice(11)}</time> ${username} \\(`,
    );
    expect(page.html).toMatch(freeSlot);
    const takenSlot = new RegExp(
      `<time datetime="${taken}:00[+-]\\d\\d:\\d\\d">${taken.slice(11)}</time> ${username} \\(`,
    );
    expect(page.html).not.toMatch(takenSlot);
    // The post holds it, shown at the same wall-clock time.
    expect(page.html).toContain(`(post #${post.body.id})`);
  });
});
