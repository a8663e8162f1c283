// Test mode on a deployment (this runtime: SANDBOX off, real X and LinkedIn apps configured): a test key
// connects an account through the emulator's consent, publishes and reads insights, and nothing reaches a
// real platform host (every outbound fetch of the worker goes through this isolate's globalThis.fetch,
// which fails the test on a platform host). A live key on the same deployment goes to the real platform;
// from outside, the emulators answer only their consent pages, and their post pages and account tools
// only the owning test key; emulated identities are per user. Delegation alike: a test key's session runs
// the emulator's consent and its proof verifies with that key's signing secret; a live key's goes to X.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifyProof } from "../../src/verify-proof";
import {
  APP_CALLBACK,
  Browser,
  connectInto,
  locationOf,
  randomState,
  runFlow,
  SESSIONS,
} from "../delegation/support";
import { admin, call, ORIGIN } from "../support/client";
import { ALL_ABILITIES, createUser, createWorkspace } from "../support/seed";
import { waitFor } from "../support/wait";

/** Every platform's hosts (and their subdomains): none may be called in test mode. */
const PLATFORM_HOSTS =
  /(^|\.)(x\.com|twitter\.com|linkedin\.com|licdn\.com|facebook\.com|instagram\.com|threads\.net|threads\.com|tiktok\.com|tiktokapis\.com|google\.com|googleapis\.com|youtube\.com|pinterest\.com)$/;

const reached: string[] = [];

beforeAll(() => {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (PLATFORM_HOSTS.test(url.hostname)) {
      reached.push(url.href);
      throw new TypeError(`test mode reached a real platform: ${url.hostname}`);
    }
    return real(input, init);
  });
});
afterAll(() => vi.restoreAllMocks());

async function keyOf(userId: number, mode: "live" | "test") {
  const res = await admin<{ key: string }>("POST", "/api-keys", {
    user_id: userId,
    abilities: ALL_ABILITIES,
    mode,
  });
  expect(res.status).toBe(201);
  return res.body.key;
}

describe("test mode with SANDBOX off and real platform apps configured", () => {
  it("connects, publishes and syncs insights through the emulators only", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id, { mode: "test" });
    const key = await keyOf(user.id, "test");
    const accountId = await connectInto({ key, workspace }, "ada_test", "twitter");
    const created = await call("POST", "/api/v1/posts", {
      key,
      body: {
        workspace_id: workspace.id,
        accounts: [accountId],
        content: [{ text: "Hello from test mode" }],
        publish_now: true,
      },
    });
    expect(created.status).toBe(201);
    const published = await waitFor(
      async () => {
        const post = await call("GET", `/api/v1/posts/${created.body.id}`, { key });
        return post.body.status === "PUBLISHED" && post.body;
      },
      { what: "the test post PUBLISHED", timeout: 15_000 },
    );
    const [row] = published.platforms;
    expect(row.post_url).toMatch(new RegExp(`^${ORIGIN}/sandbox/twitter/`));
    const sync = await call("POST", `/api/v1/analytics/posts/${created.body.id}/sync`, { key });
    expect(sync.status).toBeLessThan(300);
    await waitFor(
      async () => {
        const analytics = await call("GET", `/api/v1/analytics/posts/${created.body.id}`, { key });
        return analytics.status === 200 && analytics.body;
      },
      { what: "the test post's analytics" },
    );
    expect(reached).toEqual([]);
  });

  it("sends a live key's connection to the real platform on the same deployment", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id);
    const key = await keyOf(user.id, "live");
    const res = await call<{ authorize_url: string }>("POST", "/api/v1/accounts/connect", {
      key,
      body: {
        workspace_id: workspace.id,
        platform: "twitter",
        redirect_url: "https://app.example.test/done",
      },
    });
    expect(res.status).toBe(201);
    const opened = await call(
      "GET",
      new URL(res.body.authorize_url).pathname + new URL(res.body.authorize_url).search,
      {},
    );
    const location = new URL(opened.headers.get("location") ?? "");
    expect(location.hostname).toMatch(PLATFORM_HOSTS);
  });

  it("answers from outside only the emulators' consent pages (and the key-gated tools)", async () => {
    const consent = await call("GET", "/sandbox/twitter/oauth/authorize?client_id=x", {});
    expect(consent.status).not.toBe(404);
    for (const path of [
      "/sandbox/twitter/2/users/me",
      "/sandbox/twitter/accounts/ada_test/session",
      "/sandbox/twitter/me",
    ]) {
      const forged = await call("GET", path, { headers: { "x-sandbox-loopback": "0".repeat(64) } });
      expect([path, forged.status]).toEqual([path, 404]);
      const bare = await call("GET", path, {});
      expect([path, bare.status]).toEqual([path, 404]);
    }
  });
});

/** A user with a test workspace and a test key. */
async function testTenant() {
  const user = await createUser();
  const workspace = await createWorkspace(user.id, { mode: "test" });
  return { user, workspace, key: await keyOf(user.id, "test") };
}

type Tenant = Awaited<ReturnType<typeof testTenant>>;

/** Publishes `text` now on the account; its platform row once the post has an outcome. */
async function publish(tenant: Tenant, accountId: number, text: string) {
  const created = await call("POST", "/api/v1/posts", {
    key: tenant.key,
    body: {
      workspace_id: tenant.workspace.id,
      accounts: [accountId],
      content: [{ text }],
      publish_now: true,
    },
  });
  expect(created.status).toBe(201);
  const done = await waitFor(
    async () => {
      const post = await call("GET", `/api/v1/posts/${created.body.id}`, { key: tenant.key });
      return ["PUBLISHED", "FAILED"].includes(post.body.status) && post.body;
    },
    { what: `the post "${text}" published or failed`, timeout: 15_000 },
  );
  return { status: done.status as string, row: done.platforms[0] };
}

const tool = (path: string, key?: string, body?: unknown) =>
  call(body === undefined ? "GET" : "POST", `/sandbox/twitter${path}`, {
    ...(key ? { key } : {}),
    ...(body === undefined ? {} : { body }),
    headers: { accept: "application/json" },
  });

describe("the emulators' post pages and account tools with SANDBOX off", () => {
  it("answer only the test key of a workspace the handle is connected to", async () => {
    const owner = await testTenant();
    const other = await testTenant();
    const live = await keyOf(owner.user.id, "live");
    const accountId = await connectInto(owner, "tool_owner", "twitter");
    const { row } = await publish(owner, accountId, "Only for my key");
    const page = `/posts/${encodeURIComponent(row.platform_post_id)}`;
    for (const path of ["/accounts/tool_owner/stats", "/accounts/tool_owner/posts", page]) {
      expect([path, (await tool(path)).status]).toEqual([path, 401]);
      expect([path, (await tool(path, live)).status]).toEqual([path, 401]);
      expect([path, (await tool(path, other.key)).status]).toEqual([path, 404]);
      expect([path, (await tool(path, owner.key)).status]).toEqual([path, 200]);
    }
    // Another user's handle answers exactly like one that exists nowhere.
    const elsewhere = await tool("/accounts/tool_owner/stats", other.key);
    const nowhere = await tool("/accounts/nobody_here/stats", other.key);
    expect(elsewhere.body).toEqual(nowhere.body);
    expect((await tool("/accounts/tool_owner/stats", owner.key)).body.publications).toBe(1);
    const comment = { post_id: row.platform_post_id, text: "Nice", author: "a_follower" };
    expect((await tool("/accounts/tool_owner/comments", other.key, comment)).status).toBe(404);
    expect((await tool("/accounts/tool_owner/revoke", other.key, {})).status).toBe(404);
    expect((await tool("/accounts/tool_owner/revoke", undefined, {})).status).toBe(401);
  });

  it("gives two users who consent as the same handle two platform accounts", async () => {
    const a = await testTenant();
    const b = await testTenant();
    const accountA = await connectInto(a, "alice", "twitter");
    const accountB = await connectInto(b, "alice", "twitter");
    const ids = await env.DB.prepare("SELECT id, platform_user_id FROM accounts WHERE id IN (?, ?)")
      .bind(accountA, accountB)
      .all<{ id: number; platform_user_id: string }>();
    const [idA, idB] = [accountA, accountB].map(
      (id) => ids.results.find((r) => r.id === id)?.platform_user_id,
    );
    expect(idA).toBeTruthy();
    expect(idA).not.toBe(idB);

    const fromA = await publish(a, accountA, "Alice of user A");
    const fromB = await publish(b, accountB, "Alice of user B");
    expect([fromA.status, fromB.status]).toEqual(["PUBLISHED", "PUBLISHED"]);
    const postsOf = async (t: Tenant) =>
      (await tool("/accounts/alice/posts", t.key)).body.data.map((p: { text: string[] }) => p.text[0]);
    expect(await postsOf(a)).toEqual(["Alice of user A"]);
    expect(await postsOf(b)).toEqual(["Alice of user B"]);

    // A follower comment through A's tool reaches A's post only: B's post is not A's alice's.
    const on = (post: string) => ({ post_id: post, text: "Hello alice", author: "fan_1" });
    expect((await tool("/accounts/alice/comments", a.key, on(fromA.row.platform_post_id))).status).toBe(201);
    expect((await tool("/accounts/alice/comments", a.key, on(fromB.row.platform_post_id))).status).toBe(404);

    // A's user removes the app: A's alice can no longer publish, B's still can.
    expect((await tool("/accounts/alice/revoke", a.key, {})).status).toBe(200);
    expect((await publish(a, accountA, "After A's revoke")).status).toBe("FAILED");
    expect((await publish(b, accountB, "B is unaffected")).status).toBe("PUBLISHED");
  });
});

/** A key of `mode` with the delegation's ability and a signing secret. */
async function delegatingKey(userId: number, mode: "live" | "test") {
  const made = await admin<{ id: number; key: string }>("POST", "/api-keys", {
    user_id: userId,
    abilities: ["posts"],
    mode,
  });
  expect(made.status).toBe(201);
  const secret = await admin<{ signing_secret: string }>("POST", `/api-keys/${made.body.id}/signing-secret`);
  expect(secret.status).toBe(201);
  return { key: made.body.key, secret: secret.body.signing_secret };
}

const startDelegation = async (key: string, state: string) => {
  const res = await call<{ authorize_url: string }>("POST", SESSIONS, {
    key,
    body: { platform: "twitter", callback_url: APP_CALLBACK, state },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.authorize_url;
};

describe("delegation with SANDBOX off and real platform apps configured", () => {
  it("runs a test key's session through the emulator's consent and signs with that key's secret", async () => {
    const user = await createUser();
    const test = await delegatingKey(user.id, "test");
    const live = await delegatingKey(user.id, "live");
    const state = randomState();
    const { landed } = await runFlow(await startDelegation(test.key, state), { handle: "delegating_ada" });
    expect(`${landed.origin}${landed.pathname}`).toBe(APP_CALLBACK);
    const used = new Set<string>();
    const consume = (value: string) => value === state && !used.has(value) && Boolean(used.add(value));
    // The live key's secret does not verify it; the test key's does.
    const wrong = await verifyProof(landed, { signingSecret: live.secret, consumeState: consume });
    expect(wrong).toMatchObject({ ok: false, reason: "bad_signature" });
    const verified = await verifyProof(landed, { signingSecret: test.secret, consumeState: consume });
    expect(verified).toMatchObject({
      ok: true,
      proof: { platform: "twitter", handle: "delegating_ada", state },
    });
    expect(reached).toEqual([]);
  });

  it("sends a live key's session to the real platform's authorize URL", async () => {
    const user = await createUser();
    const live = await delegatingKey(user.id, "live");
    const authorize = await new Browser().get(await startDelegation(live.key, randomState()));
    const location = new URL(locationOf(authorize));
    expect(location.hostname).toMatch(PLATFORM_HOSTS);
    expect(location.searchParams.get("client_id")).toBe("production-twitter-client");
    expect(location.searchParams.has("sandbox_owner")).toBe(false);
  });
});
