// GET /api/v1/posts filters: status, workspace_id, account_id, a scheduled window; combined with each
// other, with pages and with the cursor; an unknown parameter is a 422.
import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import { createAccount, createPost, createTenant, createWorkspace } from "../support/seed";

const at = (iso: string) => iso;
const list = (key: string, query: Record<string, string>) =>
  call("GET", `/api/v1/posts?${new URLSearchParams(query)}`, { key });
const ids = (body: { data: { id: number }[] }) => body.data.map((p) => p.id);

/** A tenant with two workspaces: drafts and scheduled posts on different accounts and dates. */
async function tenantWithPosts() {
  const t = await createTenant();
  const second = await createWorkspace(t.user.id);
  const third = await createAccount(second.id, "threads");
  const [twitter, linkedin] = t.accounts as [{ id: number }, { id: number }];
  const draft = await createPost(t, { accounts: [twitter.id] });
  const dec1 = await createPost(t, {
    accounts: [twitter.id, linkedin.id],
    scheduled_at: at("2030-12-01T10:00:00Z"),
  });
  const dec15 = await createPost(t, {
    accounts: [linkedin.id],
    scheduled_at: at("2030-12-15T10:00:00+01:00"),
  });
  const jan = await createPost(t, {
    workspace_id: second.id,
    accounts: [third.id],
    scheduled_at: at("2031-01-10T10:00:00Z"),
  });
  return { t, second, third, twitter, linkedin, draft, dec1, dec15, jan };
}

describe("GET /api/v1/posts filters", () => {
  it("filters by status, workspace, account and a scheduled window, alone and together", async () => {
    const { t, second, third, twitter, linkedin, draft, dec1, dec15, jan } = await tenantWithPosts();
    const all = await list(t.key, {});
    expect(ids(all.body)).toEqual([jan.id, dec15.id, dec1.id, draft.id]);

    const drafts = await list(t.key, { status: "DRAFT" });
    expect(ids(drafts.body)).toEqual([draft.id]);
    expect(drafts.body.total).toBe(1);

    expect(ids((await list(t.key, { workspace_id: String(second.id) })).body)).toEqual([jan.id]);
    expect(ids((await list(t.key, { account_id: String(twitter.id) })).body)).toEqual([dec1.id, draft.id]);
    expect(ids((await list(t.key, { account_id: String(third.id) })).body)).toEqual([jan.id]);

    const december = await list(t.key, {
      scheduled_from: "2030-12-01T10:00:00Z",
      scheduled_to: "2030-12-31T23:59:59+01:00",
    });
    expect(ids(december.body)).toEqual([dec15.id, dec1.id]);
    expect(december.body.total).toBe(2);
    // Bounds are included; drafts never match a window.
    expect(ids((await list(t.key, { scheduled_to: "2030-12-01T10:00:00Z" })).body)).toEqual([dec1.id]);
    expect(ids((await list(t.key, { scheduled_from: "2031-01-10T10:00:00Z" })).body)).toEqual([jan.id]);

    const combined = await list(t.key, {
      status: "SCHEDULED",
      workspace_id: String(t.workspace.id),
      account_id: String(linkedin.id),
      scheduled_from: "2030-12-10T00:00:00Z",
    });
    expect(ids(combined.body)).toEqual([dec15.id]);
    expect(combined.body.total).toBe(1);
    // Still one D1 round trip.
    expect(serverTiming(combined.headers).dbTrips).toBeLessThanOrEqual(2);
  });

  it("pages a filtered list, and the page links keep the filters and the cursor", async () => {
    const { t, dec1, dec15, jan } = await tenantWithPosts();
    const first = await list(t.key, { status: "SCHEDULED", per_page: "2" });
    expect(ids(first.body)).toEqual([jan.id, dec15.id]);
    expect(first.body.total).toBe(3);
    expect(first.body.last_page).toBe(2);
    const next = new URL(first.body.next_page_url);
    expect(next.searchParams.get("status")).toBe("SCHEDULED");
    expect(next.searchParams.get("before_id")).toBe(String(dec15.id));
    const second = await call("GET", `${next.pathname}${next.search}`, { key: t.key });
    expect(second.status).toBe(200);
    expect(ids(second.body)).toEqual([dec1.id]);
    const byNumber = await list(t.key, { status: "SCHEDULED", per_page: "2", page: "2" });
    expect(ids(byNumber.body)).toEqual([dec1.id]);
  });

  it("keeps tenants apart: another user's workspace or account matches nothing", async () => {
    const { t } = await tenantWithPosts();
    const other = await createTenant();
    await createPost(other);
    const foreign = await list(t.key, { workspace_id: String(other.workspace.id) });
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ data: [], total: 0 });
    const foreignAccount = await list(t.key, { account_id: String(other.accounts[0]!.id) });
    expect(foreignAccount.body).toMatchObject({ data: [], total: 0 });
  });

  it("refuses unknown parameters and bad filter values with the documented 422", async () => {
    const t = await createTenant();
    const unknown = await list(t.key, { workspace: "1" });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      message: "The workspace field is not allowed.",
      errors: { workspace: ["The workspace field is not allowed."] },
    });
    const status = await list(t.key, { status: "LIVE" });
    expect(status.status).toBe(422);
    expect(status.body.errors).toEqual({ status: ["The selected status is invalid."] });
    const date = await list(t.key, { scheduled_from: "tomorrow" });
    expect(date.status).toBe(422);
    expect(date.body.errors.scheduled_from).toEqual([
      "The scheduled from field must be an ISO 8601 date-time with an offset.",
    ]);
    const id = await list(t.key, { account_id: "abc" });
    expect(id.status).toBe(422);
    expect(id.body.errors.account_id).toEqual(["The account id field must be a positive integer."]);
    const window = await list(t.key, {
      scheduled_from: "2030-12-02T00:00:00Z",
      scheduled_to: "2030-12-01T00:00:00Z",
    });
    expect(window.status).toBe(422);
    expect(window.body.errors).toEqual({
      scheduled_to: ["The scheduled to field must be a date after or equal to scheduled from."],
    });
  });
});
