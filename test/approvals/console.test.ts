// Approvals in the console: the workspaces page sets the policy; the posts page labels waiting posts,
// filters them ("Waiting for approval") and approves or rejects one as the signed-in user, at the
// version it showed.
import { describe, expect, it } from "vitest";
import { signedIn } from "../console/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";
import { pendingPost, requiredTenant, reviewsOf } from "./support";

describe("approvals in the console", () => {
  it("the workspaces page sets the approval policy, only with the csrf field", async () => {
    const t = await createTenant();
    const browser = await signedIn(t.user.id);
    const page = await browser.get("/console/workspaces");
    expect(page.html).toContain("Approval before publishing");
    const csrf = await browser.csrf("/console/workspaces");
    const path = `/console/workspaces/${t.workspace.id}/approval`;
    expect((await browser.post(path, { approval: "required" })).status).toBe(403);
    expect((await browser.post(path, { approval: "sometimes", csrf })).status).toBe(422);
    expect((await browser.post(path, { approval: "required", csrf })).status).toBe(303);
    const list = await call("GET", "/api/v1/workspaces", { key: t.key });
    expect(list.body.data[0].approval).toBe("required");
    const other = await createTenant();
    expect(
      (await browser.post(`/console/workspaces/${other.workspace.id}/approval`, { approval: "none", csrf }))
        .status,
    ).toBe(404);
  });

  it("the posts page shows what waits, filters it, and approves or rejects it as the user", async () => {
    const t = await requiredTenant();
    const first = await pendingPost(t);
    const second = await pendingPost(t);
    const browser = await signedIn(t.user.id);
    const page = await browser.get("/console/posts?status=PENDING_APPROVAL");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Waiting for approval");
    expect(page.html).toContain(`Approve post #${first.id}`);
    const csrf = await browser.csrf("/console/posts");

    // A stale version is the API's 409, and nothing changes.
    const stale = await browser.post(`/console/posts/${first.id}/approve`, { csrf, version: "2" });
    expect(stale.status).toBe(409);
    const approved = await browser.post(`/console/posts/${first.id}/approve`, {
      csrf,
      version: "1",
      note: "OK",
    });
    expect(approved.status).toBe(303);
    const rejected = await browser.post(`/console/posts/${second.id}/reject`, {
      csrf,
      version: "1",
      note: "No",
    });
    expect(rejected.status).toBe(303);
    const status = async (id: number) =>
      (await call("GET", `/api/v1/posts/${id}`, { key: t.key })).body.status;
    expect(await status(first.id)).toBe("SCHEDULED");
    expect(await status(second.id)).toBe("DRAFT");
    expect((await reviewsOf(t, first.id)).at(-1)).toMatchObject({
      action: "approved",
      note: "OK",
      by: { type: "user", name: "Test User" },
    });

    // Another user's post is the same 404 as an unknown one.
    const other = await requiredTenant();
    const theirs = await pendingPost(other);
    expect((await browser.post(`/console/posts/${theirs.id}/approve`, { csrf, version: "1" })).status).toBe(
      404,
    );
  });
});
