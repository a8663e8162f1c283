// Test mode on a deployment (this runtime: SANDBOX off, real X and LinkedIn apps configured): a test key
// connects an account through the emulator's consent, publishes and reads insights, and nothing reaches a
// real platform host (every outbound fetch of the worker goes through this isolate's globalThis.fetch,
// which fails the test on a platform host). A live key on the same deployment goes to the real platform;
// from outside, the emulators answer only their consent pages.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectInto } from "../delegation/support";
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

  it("answers from outside only the emulators' consent pages", async () => {
    const consent = await call("GET", "/sandbox/twitter/oauth/authorize?client_id=x", {});
    expect(consent.status).not.toBe(404);
    for (const path of [
      "/sandbox/twitter/2/users/me",
      "/sandbox/twitter/accounts/ada_test/stats",
      "/sandbox/twitter/me",
    ]) {
      const forged = await call("GET", path, { headers: { "x-sandbox-loopback": "0".repeat(64) } });
      expect([path, forged.status]).toEqual([path, 404]);
      const bare = await call("GET", path, {});
      expect([path, bare.status]).toEqual([path, 404]);
    }
  });
});
