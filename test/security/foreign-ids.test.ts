// Robustness, third round, item 5: a 404 must not tell another tenant's record from an absent one. The
// lookups read the record first and checked its workspace after, so Server-Timing's `rows` differed (a
// post 4 against 2, analytics 17 against 9) and the deliveries query read another endpoint's rows. Every
// lookup by id now walks only the caller's workspaces (src/db/tenancy.ts, `ownedId`): another tenant's
// id costs exactly what an absent one does, in rows read and in D1 round trips.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, serverTiming } from "../support/client";
import { insertComment, insertMedia, publishRows } from "../support/db";
import { createAccount, createPost, createTenant, createWorkspace } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

type Case = {
  method: string;
  /** The path with the record's id. */
  path: (id: number) => string;
  body?: (victim: Tenant) => unknown;
  /** Makes the victim's record (rich, so reading it would cost rows); answers its id. */
  make: (victim: Tenant) => Promise<number>;
  /** Makes another such record, to be deleted (`make` when it makes a new one each time). */
  another?: (victim: Tenant) => Promise<number>;
  /** The table whose ids the route takes, for an id just freed (absent, among existing ones). */
  table: string;
};

const db = env.DB;

async function richPost(victim: Tenant) {
  const label = await call("POST", "/api/v1/labels", {
    key: victim.key,
    body: { workspace_id: victim.workspace.id, name: "L", color: "#112233" },
  });
  const post = await createPost(victim, {
    accounts: victim.accounts.map((a) => a.id),
    labels: [label.body.id],
    content: [{ text: "Victim's post", media: [await insertMedia(victim.workspace.id)] }, { text: "More" }],
  });
  for (let i = 0; i < 3; i++) await insertComment(post.id);
  return post.id as number;
}

async function failedPost(victim: Tenant) {
  const id = await richPost(victim);
  await db.batch([
    db.prepare("UPDATE posts SET status = 'FAILED' WHERE id = ?").bind(id),
    db.prepare("UPDATE post_platforms SET status = 'FAILED' WHERE post_id = ?").bind(id),
  ]);
  return id;
}

async function publishedPost(victim: Tenant) {
  const id = await richPost(victim);
  await publishRows(id, { likes: 3, impressions: 40 }, Date.now());
  return id;
}

async function endpointWithDeliveries(victim: Tenant) {
  const hook = await call("POST", "/api/v1/webhooks", {
    key: victim.key,
    body: {
      workspace_id: victim.workspace.id,
      url: "https://hooks.example.com/victim",
      events: ["post.published"],
    },
  });
  const id = hook.body.id as number;
  const statements = [];
  for (let i = 0; i < 12; i++) {
    const event = `evt_test_${id}_${i}_${crypto.randomUUID()}`;
    statements.push(
      db
        .prepare(
          "INSERT INTO webhook_events (id, workspace_id, type, body) VALUES (?, ?, 'post.published', '{}')",
        )
        .bind(event, victim.workspace.id),
      db
        .prepare("INSERT INTO webhook_deliveries (endpoint_id, event_id, status) VALUES (?, ?, 'succeeded')")
        .bind(id, event),
    );
  }
  await db.batch(statements);
  return id;
}

async function label(victim: Tenant) {
  const res = await call("POST", "/api/v1/labels", {
    key: victim.key,
    body: { workspace_id: victim.workspace.id, name: "Victim", color: "#445566" },
  });
  return res.body.id as number;
}

const CASES: Record<string, Case> = {
  "GET /posts/{id}": {
    method: "GET",
    path: (id) => `/api/v1/posts/${id}?include_comments=true`,
    make: richPost,
    table: "posts",
  },
  "PUT /posts/{id}": {
    method: "PUT",
    path: (id) => `/api/v1/posts/${id}`,
    // Naming the victim's accounts: checked against the post's workspace, which must not be read.
    body: (victim) => ({ content: [{ text: "Edited" }], accounts: victim.accounts.map((a) => a.id) }),
    make: richPost,
    table: "posts",
  },
  "DELETE /posts/{id}": {
    method: "DELETE",
    path: (id) => `/api/v1/posts/${id}`,
    make: richPost,
    table: "posts",
  },
  "POST /posts/{id}/retry": {
    method: "POST",
    path: (id) => `/api/v1/posts/${id}/retry`,
    make: failedPost,
    table: "posts",
  },
  "GET /analytics/posts/{id}": {
    method: "GET",
    path: (id) => `/api/v1/analytics/posts/${id}`,
    make: publishedPost,
    table: "posts",
  },
  "POST /analytics/posts/{id}/sync": {
    method: "POST",
    path: (id) => `/api/v1/analytics/posts/${id}/sync`,
    make: publishedPost,
    table: "posts",
  },
  "GET /analytics/accounts/{id}": {
    method: "GET",
    path: (id) => `/api/v1/analytics/accounts/${id}`,
    make: async (victim) => {
      await publishedPost(victim);
      return victim.accounts[0]!.id;
    },
    another: async (victim) => (await createAccount(victim.workspace.id, "twitter")).id,
    table: "accounts",
  },
  "GET /analytics/workspaces/{id}": {
    method: "GET",
    path: (id) => `/api/v1/analytics/workspaces/${id}`,
    make: async (victim) => {
      await publishedPost(victim);
      return victim.workspace.id;
    },
    another: async (victim) => (await createWorkspace(victim.user.id)).id,
    table: "workspaces",
  },
  "DELETE /accounts/{id}": {
    method: "DELETE",
    path: (id) => `/api/v1/accounts/${id}`,
    make: async (victim) => {
      await richPost(victim);
      return victim.accounts[0]!.id;
    },
    another: async (victim) => (await createAccount(victim.workspace.id, "linkedin")).id,
    table: "accounts",
  },
  "PUT /labels/{id}": {
    method: "PUT",
    path: (id) => `/api/v1/labels/${id}`,
    body: () => ({ name: "Renamed", color: "#000000" }),
    make: label,
    table: "labels",
  },
  "DELETE /labels/{id}": {
    method: "DELETE",
    path: (id) => `/api/v1/labels/${id}`,
    make: label,
    table: "labels",
  },
  "DELETE /media/{id}": {
    method: "DELETE",
    path: (id) => `/api/v1/media/${id}`,
    make: (victim) => insertMedia(victim.workspace.id),
    table: "media",
  },
  "GET /webhooks/{id}": {
    method: "GET",
    path: (id) => `/api/v1/webhooks/${id}`,
    make: endpointWithDeliveries,
    table: "webhook_endpoints",
  },
  "DELETE /webhooks/{id}": {
    method: "DELETE",
    path: (id) => `/api/v1/webhooks/${id}`,
    make: endpointWithDeliveries,
    table: "webhook_endpoints",
  },
  "POST /webhooks/{id}/roll-secret": {
    method: "POST",
    path: (id) => `/api/v1/webhooks/${id}/roll-secret`,
    make: endpointWithDeliveries,
    table: "webhook_endpoints",
  },
  "POST /webhooks/{id}/enable": {
    method: "POST",
    path: (id) => `/api/v1/webhooks/${id}/enable`,
    make: endpointWithDeliveries,
    table: "webhook_endpoints",
  },
  "GET /webhooks/{id}/deliveries": {
    method: "GET",
    path: (id) => `/api/v1/webhooks/${id}/deliveries`,
    make: endpointWithDeliveries,
    table: "webhook_endpoints",
  },
};

/** An id of `table` that no row has, between existing ones: a row inserted and deleted at once. */
async function freedId(table: string, make: () => Promise<number>) {
  const id = await make();
  await db.prepare(`DELETE FROM ${table} WHERE id = ?`).bind(id).run();
  return id;
}

const spend = async (attacker: Tenant, victim: Tenant, c: Case, id: number) => {
  const res = await call(c.method, c.path(id), { key: attacker.key, body: c.body?.(victim) });
  expect(res.status, `${c.method} ${c.path(id)}: ${JSON.stringify(res.body)}`).toBe(404);
  const { dbTrips, rowsRead, hops } = serverTiming(res.headers);
  return { db: dbTrips, rows: rowsRead, hops };
};

describe("another tenant's id costs what an absent one does", () => {
  it.each(Object.entries(CASES))("%s", async (_, c) => {
    const victim = await createTenant();
    const attacker = await createTenant();
    // A little data of the attacker's own, so the caller's side is not empty.
    await richPost(attacker);
    const foreign = await c.make(victim);
    const hole = await freedId(c.table, () => (c.another ?? c.make)(victim));
    const beyond = foreign + 1_000_000;
    // The key is known to the isolate from here on.
    await call("GET", "/api/v1/workspaces", { key: attacker.key });
    const absent = await spend(attacker, victim, c, beyond);
    expect(await spend(attacker, victim, c, foreign)).toEqual(absent);
    expect(await spend(attacker, victim, c, hole)).toEqual(absent);
    // The victim's record is untouched.
    expect(
      await db.prepare(`SELECT count(*) AS n FROM ${c.table} WHERE id = ?`).bind(foreign).first("n"),
    ).toBe(1);
  });
});

/** The victim's workspace, filled with a little of everything a workspace holds. */
async function fullWorkspace(victim: Tenant) {
  await richPost(victim);
  await endpointWithDeliveries(victim);
  await call("POST", "/api/v1/folders", {
    key: victim.key,
    body: { workspace_id: victim.workspace.id, name: "F" },
  });
  return victim.workspace.id;
}

/** Routes that take a workspace id in the query or the body. */
const WORKSPACE_CASES: Record<string, Case> = Object.fromEntries(
  (
    [
      ["GET /labels?workspace_id=", "GET", (id: number) => `/api/v1/labels?workspace_id=${id}`],
      ["GET /folders?workspace_id=", "GET", (id: number) => `/api/v1/folders?workspace_id=${id}`],
      ["GET /webhooks?workspace_id=", "GET", (id: number) => `/api/v1/webhooks?workspace_id=${id}`],
      ["GET /media?workspace_id=", "GET", (id: number) => `/api/v1/media?workspace_id=${id}`],
      [
        "POST /labels",
        "POST",
        () => "/api/v1/labels",
        (id: number) => ({ workspace_id: id, name: "x", color: "#000000" }),
      ],
      ["POST /folders", "POST", () => "/api/v1/folders", (id: number) => ({ workspace_id: id, name: "x" })],
      [
        "POST /webhooks",
        "POST",
        () => "/api/v1/webhooks",
        (id: number) => ({
          workspace_id: id,
          url: "https://hooks.example.com/x",
          events: ["post.published"],
        }),
      ],
      [
        "POST /media/upload/url",
        "POST",
        () => "/api/v1/media/upload/url",
        (id: number) => ({ workspace_id: id, urls: ["http://localhost/x.png"] }),
      ],
    ] as Array<[string, string, (id: number) => string, ((id: number) => unknown)?]>
  ).map(([name, method, path, body]): [string, Case] => {
    let target = 0;
    return [
      name,
      {
        method,
        // The body names the workspace too: `path` is called with it first.
        path: (id) => {
          target = id;
          return path(id);
        },
        body: body && (() => body(target)),
        make: fullWorkspace,
        another: async (victim) => (await createWorkspace(victim.user.id)).id,
        table: "workspaces",
      },
    ];
  }),
);

describe("another tenant's workspace id costs what an absent one does", () => {
  it.each(Object.entries(WORKSPACE_CASES))("%s", async (_, c) => {
    const victim = await createTenant();
    const attacker = await createTenant();
    await richPost(attacker);
    const foreign = await c.make(victim);
    const hole = await freedId(c.table, () => c.another!(victim));
    await call("GET", "/api/v1/workspaces", { key: attacker.key });
    const absent = await spend(attacker, victim, c, foreign + 1_000_000);
    expect(await spend(attacker, victim, c, foreign)).toEqual(absent);
    expect(await spend(attacker, victim, c, hole)).toEqual(absent);
  });

  it("POST /posts naming another tenant's workspace and its accounts, labels and media", async () => {
    const victim = await createTenant();
    const attacker = await createTenant();
    await fullWorkspace(victim);
    const media = await insertMedia(victim.workspace.id);
    const hole = await freedId("workspaces", async () => (await createWorkspace(victim.user.id)).id);
    await call("GET", "/api/v1/workspaces", { key: attacker.key });
    const c: Case = {
      method: "POST",
      path: () => "/api/v1/posts",
      make: fullWorkspace,
      table: "workspaces",
    };
    const post = (workspace: number) => ({
      ...c,
      body: () => ({
        workspace_id: workspace,
        accounts: victim.accounts.map((a) => a.id),
        content: [{ text: "x", media: [media] }],
      }),
    });
    const absent = await spend(attacker, victim, post(victim.workspace.id + 1_000_000), 0);
    expect(await spend(attacker, victim, post(victim.workspace.id), 0)).toEqual(absent);
    expect(await spend(attacker, victim, post(hole), 0)).toEqual(absent);
  });
});

describe("the deliveries log reads no row of another tenant", () => {
  it("costs the same rows whatever another endpoint's activity", async () => {
    const victim = await createTenant();
    const attacker = await createTenant();
    const quiet = await call("POST", "/api/v1/webhooks", {
      key: victim.key,
      body: {
        workspace_id: victim.workspace.id,
        url: "https://hooks.example.com/quiet",
        events: ["post.published"],
      },
    });
    const busy = await endpointWithDeliveries(victim);
    await call("GET", "/api/v1/workspaces", { key: attacker.key });
    const c = CASES["GET /webhooks/{id}/deliveries"]!;
    expect(await spend(attacker, victim, c, busy)).toEqual(await spend(attacker, victim, c, quiet.body.id));
  });
});

// Issue 29, 2.2: a list's filter naming another tenant's record must cost what an absent one does, however
// much that record holds (the posts list's filters: test/posts/filters.test.ts).
describe("a list filter naming another tenant's folder reads none of its contents", () => {
  const FILTERS: Record<string, (attacker: Tenant, folder: number) => string> = {
    "GET /folders?parent_id=": (attacker, folder) =>
      `/api/v1/folders?workspace_id=${attacker.workspace.id}&parent_id=${folder}`,
    "GET /media?folder_id=": (_, folder) => `/api/v1/media?folder_id=${folder}`,
    "GET /media?workspace_id=&folder_id=": (attacker, folder) =>
      `/api/v1/media?workspace_id=${attacker.workspace.id}&folder_id=${folder}`,
  };
  it.each(Object.entries(FILTERS))("%s", async (_, path) => {
    const victim = await createTenant();
    const attacker = await createTenant();
    await insertMedia(attacker.workspace.id);
    const folder = async (parent?: number) =>
      (
        await call("POST", "/api/v1/folders", {
          key: victim.key,
          body: { workspace_id: victim.workspace.id, name: `F${parent ?? ""}`, parent_id: parent },
        })
      ).body.id as number;
    const foreign = await folder();
    await call("GET", "/api/v1/workspaces", { key: attacker.key });
    const spent = async (id: number) => {
      const res = await call("GET", path(attacker, id), { key: attacker.key });
      // The page links name the id asked for: the answer's data and total are compared.
      const { data, total } = res.body;
      return { status: res.status, data, total, rows: serverTiming(res.headers).rowsRead };
    };
    const absent = await spent(foreign + 1_000_000);
    expect(await spent(foreign)).toEqual(absent);
    for (let i = 0; i < 5; i++) {
      await folder(foreign);
      const item = await insertMedia(victim.workspace.id);
      await db.prepare("UPDATE media SET folder_id = ? WHERE id = ?").bind(foreign, item).run();
    }
    expect(await spent(foreign)).toEqual(absent);
  });
});
