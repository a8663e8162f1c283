// Posting queues over HTTP: an account's queue and the workspace default it inherits, the next free
// slots written with their offsets, `queue: true` on create, update and the dry run, the atomic claim
// (20 parallel queued posts on one account take 20 slots), a queue change leaving scheduled posts where
// they are, `post.rescheduled` once per move, tenancy, and the MCP tool `queue_post`.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Origins } from "../media/support";
import { call } from "../support/client";
import { d1Of } from "../support/db";
import { createTenant, inMinutes } from "../support/seed";
import { installOrigins, Receiver, receiverUrl } from "../webhooks/support";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const EVERY_DAY = (time: string) => [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, time }));
/** Every hour of every day: enough slots that the next ones are always close. */
const HOURLY = [1, 2, 3, 4, 5, 6, 7].flatMap((day) =>
  Array.from({ length: 10 }, (_, h) => ({ day, time: `${String(h * 2 + 1).padStart(2, "0")}:00` })),
);

const putQueue = (t: Tenant, accountId: number, body: unknown) =>
  call("PUT", `/api/v1/accounts/${accountId}/queue`, { key: t.key, body });

const slotsOf = async (t: Tenant, accountId: number, count = 10) => {
  const res = await call("GET", `/api/v1/accounts/${accountId}/queue/slots?count=${count}`, { key: t.key });
  expect(res.status).toBe(200);
  return res.body as { timezone: string; data: string[]; paused: boolean };
};

const queued = (t: Tenant, fields: Record<string, unknown> = {}) =>
  call("POST", "/api/v1/posts", {
    key: t.key,
    body: {
      workspace_id: t.workspace.id,
      accounts: [t.accounts[0]!.id],
      content: [{ text: "Queued" }],
      queue: true,
      ...fields,
    },
  });

describe("an account's queue", () => {
  it("inherits the workspace default until it has its own, in the workspace's zone unless set", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const account = t.accounts[0]!.id;
    let res = await call("GET", `/api/v1/accounts/${account}/queue`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: account,
      source: "none",
      timezone: "Europe/Paris",
      timezone_inherited: true,
      slots: [],
      paused: false,
    });

    res = await call("PUT", `/api/v1/workspaces/${t.workspace.id}/queue`, {
      key: t.key,
      body: {
        slots: [
          { day: 5, time: "17:30" },
          { day: 1, time: "09:00" },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workspace_id: t.workspace.id, timezone: "Europe/Paris" });
    // Sorted by day, then time.
    expect(res.body.slots).toEqual([
      { day: 1, time: "09:00" },
      { day: 5, time: "17:30" },
    ]);
    res = await call("GET", `/api/v1/accounts/${account}/queue`, { key: t.key });
    expect(res.body).toMatchObject({
      source: "workspace",
      slots: [
        { day: 1, time: "09:00" },
        { day: 5, time: "17:30" },
      ],
    });

    res = await putQueue(t, account, { slots: [{ day: 2, time: "08:15" }], timezone: "America/New_York" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account_id: account,
      source: "account",
      timezone: "America/New_York",
      timezone_inherited: false,
      slots: [{ day: 2, time: "08:15" }],
      paused: false,
    });
    // The other account still inherits.
    res = await call("GET", `/api/v1/accounts/${t.accounts[1]!.id}/queue`, { key: t.key });
    expect(res.body.source).toBe("workspace");

    res = await call("DELETE", `/api/v1/accounts/${account}/queue`, { key: t.key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: "workspace", timezone: "Europe/Paris" });
  });

  it("refuses malformed slots and zones with 422s naming them, and unknown fields", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    for (const [body, field] of [
      [{ slots: [{ day: 8, time: "09:00" }] }, "slots.0.day"],
      [{ slots: [{ day: 1, time: "24:00" }] }, "slots.0.time"],
      [{ slots: [{ day: 1, time: "9:00" }] }, "slots.0.time"],
      [
        {
          slots: [
            { day: 1, time: "09:00" },
            { day: 1, time: "09:00" },
          ],
        },
        "slots",
      ],
      [{ slots: [], timezone: "Mars/Olympus" }, "timezone"],
      [{ slots: [], pause: true }, "pause"],
    ] as const) {
      const res = await putQueue(t, account, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
    }
  });

  it("is another tenant's 404, never read or written", async () => {
    const [t, other] = await Promise.all([createTenant(), createTenant()]);
    const foreign = other.accounts[0]!.id;
    for (const [method, path, body] of [
      ["GET", `/api/v1/accounts/${foreign}/queue`, undefined],
      ["PUT", `/api/v1/accounts/${foreign}/queue`, { slots: [{ day: 1, time: "09:00" }] }],
      ["DELETE", `/api/v1/accounts/${foreign}/queue`, undefined],
      ["GET", `/api/v1/accounts/${foreign}/queue/slots`, undefined],
      ["GET", `/api/v1/workspaces/${other.workspace.id}/queue`, undefined],
      ["PUT", `/api/v1/workspaces/${other.workspace.id}/queue`, { slots: [] }],
    ] as const) {
      const res = await call(method, path, { key: t.key, body });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const rows = await d1Of(other.workspace.id)
      .prepare("SELECT count(*) AS n FROM posting_queues WHERE workspace_id = ?")
      .bind(other.workspace.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(0);
  });
});

describe("free slots", () => {
  it("lists the next slots with their offset and zone, skipping taken ones, none while paused", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: EVERY_DAY("09:00") });
    const slots = await slotsOf(t, account, 3);
    expect(slots.timezone).toBe("Europe/Paris");
    expect(slots.data).toHaveLength(3);
    for (const at of slots.data) expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T09:00:00\+0[12]:00$/);
    expect(new Set(slots.data).size).toBe(3);

    // A post scheduled by hand at a slot's instant holds it.
    const first = slots.data[0]!;
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [account],
        content: [{ text: "x" }],
        scheduled_at: first,
      },
    });
    expect(res.status).toBe(201);
    expect((await slotsOf(t, account, 2)).data).toEqual(slots.data.slice(1, 3));

    await putQueue(t, account, { slots: EVERY_DAY("09:00"), paused: true });
    expect(await slotsOf(t, account)).toMatchObject({ paused: true, data: [] });
    expect(
      (await call("GET", `/api/v1/accounts/${account}/queue/slots?count=101`, { key: t.key })).status,
    ).toBe(422);
  });
});

describe("queue: true", () => {
  it("schedules a created post at the first free slot, the next one at the slot after", async () => {
    const t = await createTenant({ timezone: "America/New_York" });
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: EVERY_DAY("10:30") });
    const [a, b] = (await slotsOf(t, account, 2)).data;
    const first = await queued(t);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: "SCHEDULED", scheduled_at: a });
    const second = await queued(t);
    expect(second.body.scheduled_at).toBe(b);
    // Deleting the first frees its slot.
    expect((await call("DELETE", `/api/v1/posts/${first.body.id}`, { key: t.key })).status).toBe(200);
    expect((await slotsOf(t, account, 1)).data).toEqual([a]);
  });

  it("gives 20 parallel queued posts on one account 20 different slots", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: HOURLY });
    const expected = (await slotsOf(t, account, 20)).data;
    const answers = await Promise.all(Array.from({ length: 20 }, () => queued(t)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const times = answers.map((a) => a.body.scheduled_at as string);
    expect(new Set(times).size).toBe(20);
    expect([...times].sort()).toEqual([...expected].sort());
  });

  it("takes, for several accounts, the first slot free in every one of their queues", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const [one, two] = [t.accounts[0]!.id, t.accounts[1]!.id];
    await putQueue(t, one, { slots: EVERY_DAY("09:00") });
    await putQueue(t, two, { slots: EVERY_DAY("09:00") });
    const [first, second] = (await slotsOf(t, one, 2)).data;
    // The first slot is taken on the second account only.
    expect((await queued(t, { accounts: [two] })).body.scheduled_at).toBe(first);
    const both = await queued(t, { accounts: [one, two] });
    expect(both.body.scheduled_at).toBe(second);
    // Queues without a shared slot: a 422 on `queue`.
    await putQueue(t, two, { slots: EVERY_DAY("10:00") });
    const none = await queued(t, { accounts: [one, two] });
    expect(none.status).toBe(422);
    expect(none.body.errors.queue[0]).toContain("No slot shared");
  });

  it("refuses a queue without slots, a paused one, and queue with a time, naming the account", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    let res = await queued(t);
    expect(res.status).toBe(422);
    expect(res.body.errors.queue).toEqual(["The queue of accounts.0 has no slots."]);
    await putQueue(t, account, { slots: HOURLY, paused: true });
    res = await queued(t);
    expect(res.body.errors.queue).toEqual(["The queue of accounts.0 is paused."]);
    await putQueue(t, account, { slots: HOURLY });
    res = await queued(t, { scheduled_at: inMinutes(60) });
    expect(res.status).toBe(422);
    expect(res.body.errors.queue).toEqual(["The queue field is prohibited when scheduled at is present."]);
    res = await queued(t, { publish_now: true });
    expect(res.body.errors.queue).toEqual(["The queue field is prohibited when publish now is present."]);
    const posts = await call("GET", `/api/v1/posts?workspace_id=${t.workspace.id}`, { key: t.key });
    expect(posts.body.total).toBe(0);
  });

  it("is checked by the dry run, which takes no slot", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    const body = { workspace_id: t.workspace.id, accounts: [account], content: [{ text: "x" }], queue: true };
    let res = await call("POST", "/api/v1/posts/validate", { key: t.key, body });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect(res.body.errors.queue).toEqual(["The queue of accounts.0 has no slots."]);
    await putQueue(t, account, { slots: HOURLY });
    const before = (await slotsOf(t, account, 1)).data;
    res = await call("POST", "/api/v1/posts/validate", { key: t.key, body });
    // It names the slot a create would take now, with its offset.
    expect(res.body).toMatchObject({ valid: true, errors: {}, scheduled_at: before[0] });
    expect((await slotsOf(t, account, 1)).data).toEqual(before);
    const { queue: _, ...draft } = body;
    res = await call("POST", "/api/v1/posts/validate", { key: t.key, body: draft });
    expect(res.body).toMatchObject({ valid: true, scheduled_at: null });
  });

  it("leaves scheduled posts where they are when the queue changes", async () => {
    const t = await createTenant({ timezone: "Europe/Paris" });
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: EVERY_DAY("09:00") });
    const post = (await queued(t)).body;
    await putQueue(t, account, { slots: EVERY_DAY("18:00"), timezone: "Asia/Tokyo" });
    await call("PUT", `/api/v1/workspaces/${t.workspace.id}/queue`, { key: t.key, body: { slots: [] } });
    const got = await call("GET", `/api/v1/posts/${post.id}`, { key: t.key });
    expect(got.body).toMatchObject({ status: "SCHEDULED", scheduled_at: post.scheduled_at });
  });
});

describe("queue: true on update, and post.rescheduled", () => {
  // The endpoint's deliveries land in a Receiver (this isolate's fetch, restored after each test): a
  // delivery to a real host would outlive the test and keep the shared runtime from ever closing.
  let origins: Origins;
  beforeEach(() => {
    origins = installOrigins();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The `post.rescheduled` versions recorded for the post, whether still in the outbox or emitted. */
  async function rescheduled(postId: number): Promise<string[]> {
    const db = d1Of(postId);
    const [outbox, events] = await Promise.all([
      db
        .prepare("SELECT version FROM outbox WHERE type = 'post.rescheduled' AND record_id = ?")
        .bind(postId)
        .all<{ version: string }>(),
      db
        .prepare("SELECT id FROM webhook_events WHERE id LIKE ?")
        .bind(`evt_post.rescheduled_${postId}_%`)
        .all<{ id: string }>(),
    ]);
    const versions = [
      ...outbox.results.map((r) => r.version),
      ...events.results.map((r) => r.id.split("_").at(-1)!),
    ];
    return [...new Set(versions)];
  }

  async function listening(t: Tenant) {
    // An endpoint of the workspace: the outbox records only what someone could be told.
    const url = receiverUrl();
    const receiver = new Receiver(origins, url);
    const created = await call("POST", "/api/v1/webhooks", {
      key: t.key,
      body: { workspace_id: t.workspace.id, url, events: ["post.rescheduled"] },
    });
    expect(created.status).toBe(201);
    return receiver;
  }

  it("queues a draft, keeps a post already at its earliest slot, and tells each move of a scheduled post once", async () => {
    const t = await createTenant();
    const receiver = await listening(t);
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: HOURLY });
    const [first, second] = (await slotsOf(t, account, 2)).data;
    const draft = (
      await call("POST", "/api/v1/posts", {
        key: t.key,
        body: { workspace_id: t.workspace.id, accounts: [account], content: [{ text: "draft" }] },
      })
    ).body;
    let res = await call("PUT", `/api/v1/posts/${draft.id}`, { key: t.key, body: { queue: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "SCHEDULED", scheduled_at: first });
    // A draft that became scheduled was not rescheduled.
    expect(await rescheduled(draft.id)).toEqual([]);

    // Queued again: it already holds the earliest free slot, so it does not move.
    res = await call("PUT", `/api/v1/posts/${draft.id}`, { key: t.key, body: { queue: true } });
    expect(res.body.scheduled_at).toBe(first);
    expect(await rescheduled(draft.id)).toEqual([]);
    // Content edits do not move it either.
    await call("PUT", `/api/v1/posts/${draft.id}`, { key: t.key, body: { content: [{ text: "edited" }] } });
    expect(await rescheduled(draft.id)).toEqual([]);

    // A new time: one move.
    res = await call("PUT", `/api/v1/posts/${draft.id}`, {
      key: t.key,
      body: { scheduled_at: inMinutes(7 * 24 * 60) },
    });
    expect(res.status).toBe(200);
    expect(await rescheduled(draft.id)).toHaveLength(1);
    // Back to the queue: its first free slot is free again, a second move.
    res = await call("PUT", `/api/v1/posts/${draft.id}`, { key: t.key, body: { queue: true } });
    expect(res.body.scheduled_at).toBe(first);
    expect(await rescheduled(draft.id)).toHaveLength(2);
    // Another queued post takes the next slot.
    expect((await queued(t)).body.scheduled_at).toBe(second);
    // Both moves are delivered (nothing left in flight when the test ends).
    await receiver.waitFor("post.rescheduled", 2);
  });

  it("queues a post through MCP queue_post", async () => {
    const t = await createTenant();
    const account = t.accounts[0]!.id;
    await putQueue(t, account, { slots: HOURLY });
    const [first] = (await slotsOf(t, account, 1)).data;
    const draft = (
      await call("POST", "/api/v1/posts", {
        key: t.key,
        body: { workspace_id: t.workspace.id, accounts: [account], content: [{ text: "draft" }] },
      })
    ).body;
    const res = await call("POST", "/mcp", {
      key: t.key,
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "queue_post", arguments: { id: draft.id } },
      },
    });
    expect(res.status).toBe(200);
    const result = (res.body as { result: { content: { text: string }[]; isError?: boolean } }).result;
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({
      id: draft.id,
      status: "SCHEDULED",
      scheduled_at: first,
    });
  });
});
