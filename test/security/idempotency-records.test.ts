// Robustness, third round, item 6: Idempotency-Key records. (a) Every success leaves a record, even
// one whose answer is too large to keep: a repeat never runs again. (b) Kept answers are sealed: the
// Coordinator's storage never holds an answer's secret (a webhook's signing secret) in plain text.
// (c) The key is claimed in the gate's one admission call: a keyed create costs one hop more than a
// plain one (the answer kept), at most three.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { userCoordinator } from "../../src/coordinator/names";
import { MAX_STORED_BODY } from "../../src/http/idempotency";
import { APP_CALLBACK, createApp, randomState, SESSIONS } from "../delegation/support";
import { insertProcessing } from "../media/support";
import { call, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { createAccount, createTenant } from "../support/seed";

const newKey = () => `key-${crypto.randomUUID()}`;
const withKey = (key: string) => ({ "Idempotency-Key": key });

const postCount = async (workspaceId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM posts WHERE workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>())!.n;

/** Every value of every idempotency record, BLOBs as Latin-1 text, to search for plain text. */
const storedRecords = (userId: number) =>
  runInDurableObject(env.COORDINATOR.getByName(userCoordinator({ userId, mode: "live" })), (_, state) =>
    state.storage.sql
      .exec("SELECT * FROM idempotency")
      .toArray()
      .map((row) =>
        Object.values(row)
          .map((value) =>
            value instanceof ArrayBuffer ? new TextDecoder("latin1").decode(value) : String(value),
          )
          .join("\n"),
      )
      .join("\n"),
  );

describe("(a) a success whose answer is too large to keep", () => {
  it("is recorded all the same: a repeat is a 409 saying so, and creates nothing", async () => {
    const t = await createTenant();
    const facebook = await createAccount(t.workspace.id, "facebook");
    const media: { id: number }[] = [];
    for (let i = 0; i < 20; i++)
      media.push(
        await insertProcessing(t.workspace.id, "https://cdn.example.test/clip.mp4", {
          name: `${"m".repeat(190)}-${i}.mp4`,
        }),
      );
    // U+0001 is written \u0001 in JSON, six characters for one: 25 items of it, each with 20 media, make
    // an answer well over the 512 K characters kept.
    const text = "\u0001".repeat(2621);
    const body = {
      workspace_id: t.workspace.id,
      accounts: [facebook.id],
      content: Array.from({ length: 25 }, () => ({ text, media: media.map((m) => m.id) })),
    };
    const key = newKey();
    const first = await call("POST", "/api/v1/posts", { key: t.key, body, headers: withKey(key) });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(201);
    expect(JSON.stringify(first.body).length).toBeGreaterThan(MAX_STORED_BODY);

    const again = await call("POST", "/api/v1/posts", { key: t.key, body, headers: withKey(key) });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already completed \(status 201\), but its answer was not kept/);
    expect(again.headers.get("retry-after")).toBeNull();
    expectDocumented("POST", "/api/v1/posts", again);
    expect(await postCount(t.workspace.id)).toBe(1);
  });
});

describe("(b) kept answers are sealed", () => {
  it("stores no webhook signing secret in plain text, and the replay still shows it", async () => {
    const t = await createTenant();
    const key = newKey();
    const url = `https://hooks-${crypto.randomUUID()}.example.test/in`;
    const body = { workspace_id: t.workspace.id, url, events: ["post.published"] };
    const first = await call("POST", "/api/v1/webhooks", { key: t.key, body, headers: withKey(key) });
    expect(first.status).toBe(201);
    const secret = first.body.secret as string;
    expect(secret).toMatch(/^whsec_/);

    const stored = await storedRecords(t.user.id);
    expect(stored).toContain(key);
    expect(stored).not.toContain("whsec_");
    expect(stored).not.toContain(secret.slice("whsec_".length, "whsec_".length + 16));
    expect(stored).not.toContain(url);

    const again = await call("POST", "/api/v1/webhooks", { key: t.key, body, headers: withKey(key) });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("stores no authorize link of a delegation session in plain text", async () => {
    const app = await createApp();
    const key = newKey();
    const body = { platform: "twitter", callback_url: APP_CALLBACK, state: randomState() };
    const first = await call("POST", SESSIONS, { key: app.key, body, headers: withKey(key) });
    expect(first.status).toBe(200);
    const token = (first.body.authorize_url as string).split("/").at(-1)!;
    expect(await storedRecords(app.userId)).not.toContain(token);
  });
});

describe("(c) the claim rides on the admission", () => {
  it.each([
    [
      "/api/v1/labels",
      (t: Tenant, n: string) => ({ workspace_id: t.workspace.id, name: n, color: "#4F46E5" }),
    ],
    ["/api/v1/folders", (t: Tenant, n: string) => ({ workspace_id: t.workspace.id, name: n })],
    [
      "/api/v1/posts",
      (t: Tenant, n: string) => ({
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: n }],
      }),
    ],
    [
      "/api/v1/webhooks",
      (t: Tenant, n: string) => ({
        workspace_id: t.workspace.id,
        url: `https://hooks-${n}.example.test/in`,
        events: ["post.published"],
      }),
    ],
    [
      "/api/v1/accounts/connect",
      (t: Tenant, n: string) => ({
        workspace_id: t.workspace.id,
        platform: "twitter",
        redirect_url: `https://app.example.test/${n}`,
      }),
    ],
  ] as const)(
    "POST %s with a key: one hop more than without, at most 3; a replay is one hop",
    async (path, body) => {
      const t = await createTenant();
      await call("GET", "/api/v1/workspaces", { key: t.key }); // the key is now known to the isolate
      const plain = await call("POST", path, { key: t.key, body: body(t, "plain") });
      expect(plain.status).toBe(201);
      const key = newKey();
      const send = () => call("POST", path, { key: t.key, body: body(t, "keyed"), headers: withKey(key) });
      const keyed = await send();
      expect(keyed.status).toBe(201);
      const replay = await send();
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      const [p, k, r] = [plain, keyed, replay].map((answer) => serverTiming(answer.headers));
      expect(k!.hops).toBe(p!.hops + 1);
      expect(k!.hops).toBeLessThanOrEqual(3);
      expect(k!.dbTrips).toBe(p!.dbTrips);
      // The admission and its claim; the route's early reads overlap it, and nothing is written.
      expect(r!.hops).toBe(1);
      expect(r!.dbTrips).toBeLessThanOrEqual(p!.dbTrips);
    },
  );

  it("the delegation session endpoint with a key: one hop more than without", async () => {
    const app = await createApp();
    const body = () => ({ platform: "twitter", callback_url: APP_CALLBACK, state: randomState() });
    await call("POST", SESSIONS, { key: app.key, body: body() }); // the key is now known to the isolate
    const plain = serverTiming((await call("POST", SESSIONS, { key: app.key, body: body() })).headers);
    const keyed = await call("POST", SESSIONS, { key: app.key, body: body(), headers: withKey(newKey()) });
    expect(keyed.status).toBe(200);
    expect(serverTiming(keyed.headers).hops).toBe(plain.hops + 1);
  });
});

type Tenant = Awaited<ReturnType<typeof createTenant>>;
