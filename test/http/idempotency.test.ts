// Idempotency-Key (src/http/idempotency.ts, src/coordinator/idempotency.ts): replays, mismatches,
// concurrency, per-user scope, expiry, what is and is not kept, multipart bodies and the delegation
// session endpoint. Counts are read from D1, so a replay that created a duplicate cannot pass.
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS } from "../../src/coordinator/idempotency";
import { FINGERPRINT_BYTES } from "../../src/http/idempotency";
import worker from "../../src/index";
import { APP_CALLBACK, createApp, randomState, SESSIONS } from "../delegation/support";
import { type Field, file, form, jpegBytes, pngBytes } from "../media/support";
import { type Answer, call, ORIGIN, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const newKey = () => `key-${crypto.randomUUID()}`;
const withKey = (key: string) => ({ "Idempotency-Key": key });

async function count(table: "posts" | "labels" | "folders" | "media", workspaceId: number) {
  const row = await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE workspace_id = ?`)
    .bind(workspaceId)
    .first<{ n: number }>();
  return row!.n;
}

const postBody = (t: Tenant, text = "Hello") => ({
  workspace_id: t.workspace.id,
  accounts: [t.accounts[0]!.id],
  content: [{ text }],
});
const createPost = (t: Tenant, key: string, text = "Hello") =>
  call("POST", "/api/v1/posts", { key: t.key, body: postBody(t, text), headers: withKey(key) });
const createLabel = (t: Tenant, key: string, name = "Launch") =>
  call("POST", "/api/v1/labels", {
    key: t.key,
    body: { workspace_id: t.workspace.id, name, color: "#4F46E5" },
    headers: withKey(key),
  });

const userInstance = (userId: number) => env.COORDINATOR.getByName(`user:${userId}`);

function expectReplayOf(replay: Answer, first: Answer) {
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.status).toBe(first.status);
  expect(replay.body).toEqual(first.body);
  expect(replay.headers.get("content-type")).toBe(first.headers.get("content-type"));
}

describe("Idempotency-Key: replays", () => {
  it("replays a post create: same status and body, one post", async () => {
    const t = await createTenant();
    const key = newKey();
    const first = await createPost(t, key);
    expect(first.status).toBe(201);
    const again = await createPost(t, key);
    expectReplayOf(again, first);
    // The replay passed the gate: it is counted and carries the window's headers.
    expect(again.headers.get("x-ratelimit-remaining")).toBe("58");
    expect(await count("posts", t.workspace.id)).toBe(1);
    // Without the header, nothing changes: a second post.
    const plain = await call("POST", "/api/v1/posts", { key: t.key, body: postBody(t) });
    expect(plain.status).toBe(201);
    expect(plain.headers.get("idempotent-replayed")).toBeNull();
    expect(await count("posts", t.workspace.id)).toBe(2);
  });

  it("replays a label create, and a kept 422 as well", async () => {
    const t = await createTenant();
    const key = newKey();
    const first = await createLabel(t, key);
    expect(first.status).toBe(201);
    expectReplayOf(await createLabel(t, key), first);
    expect(await count("labels", t.workspace.id)).toBe(1);

    // A client error is an answer too: kept and replayed (the same body gets the same 422).
    const invalidKey = newKey();
    const refused = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "" },
      headers: withKey(invalidKey),
    });
    expect(refused.status).toBe(422);
    const again = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "" },
      headers: withKey(invalidKey),
    });
    expectReplayOf(again, refused);
  });

  it("does not keep a 409: the repeat runs again", async () => {
    const t = await createTenant();
    const draft = await call("POST", "/api/v1/posts", { key: t.key, body: postBody(t) });
    const key = newKey();
    const retry = () =>
      call("POST", `/api/v1/posts/${draft.body.id}/retry`, { key: t.key, headers: withKey(key) });
    const first = await retry();
    expect(first.status).toBe(409);
    const second = await retry();
    expect(second.status).toBe(409);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.headers.get("retry-after")).toBeNull();
    expect(second.body).toEqual(first.body);
  });

  it("does not keep a 5xx: the key is free for the retry", async () => {
    const t = await createTenant();
    const key = newKey();
    const body = { ...postBody(t), publish_now: true };
    // The worker with its publish queue down: the create fails with a 500 after its D1 writes.
    const down = { sendBatch: async () => Promise.reject(new Error("queue down")) };
    const failed = await worker.fetch(
      new Request(`${ORIGIN}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json", ...withKey(key) },
        body: JSON.stringify(body),
      }),
      { ...env, PUBLISH_QUEUE: down as unknown as Queue },
      createExecutionContext(),
    );
    expect(failed.status).toBe(500);
    const retried = await call("POST", "/api/v1/posts", { key: t.key, body, headers: withKey(key) });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();
    expectReplayOf(await call("POST", "/api/v1/posts", { key: t.key, body, headers: withKey(key) }), retried);
  });
});

describe("Idempotency-Key: cost", () => {
  it("costs only the requests that send it: the claim rides on the admission, the answer kept is one hop more", async () => {
    const t = await createTenant();
    await call("GET", "/api/v1/labels", { key: t.key }); // the key is now known to the isolate
    const body = (name: string) => ({ workspace_id: t.workspace.id, name, color: "#4F46E5" });
    const plain = serverTiming(
      (await call("POST", "/api/v1/labels", { key: t.key, body: body("a") })).headers,
    );
    const key = newKey();
    const send = () => call("POST", "/api/v1/labels", { key: t.key, body: body("b"), headers: withKey(key) });
    const keyed = serverTiming((await send()).headers);
    const replay = serverTiming((await send()).headers);
    expect(keyed.dbTrips).toBe(plain.dbTrips);
    // The claim in the admission call (the reads still overlap it), then the answer kept.
    expect(keyed.hops).toBe(plain.hops + 1);
    // The admission and claim, the reads alongside; nothing written.
    expect(replay).toMatchObject({ dbTrips: 1, hops: 1, gateCalls: 1 });
  });
});

describe("Idempotency-Key: mismatches and malformed keys", () => {
  it("answers 422 to the same key with another body, path or method, and creates nothing", async () => {
    const t = await createTenant();
    const key = newKey();
    expect((await createPost(t, key, "first")).status).toBe(201);
    const other = await createPost(t, key, "second");
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(["Idempotency-Key"]);
    expect(other.body.message).toMatch(/already used for a different request/);
    expectDocumented("POST", "/api/v1/posts", other);
    expect(await count("posts", t.workspace.id)).toBe(1);

    // Same key, same body, another route: a different request too.
    const label = await call("POST", "/api/v1/folders", {
      key: t.key,
      body: postBody(t, "first"),
      headers: withKey(key),
    });
    expect(label.status).toBe(422);
    expect(label.body.errors).toHaveProperty("Idempotency-Key");
    expect(await count("folders", t.workspace.id)).toBe(0);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["not printable", "key\x7f"],
  ])("refuses a key that is %s with a 422 and creates nothing", async (_, value) => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/labels", {
      key: t.key,
      body: { workspace_id: t.workspace.id, name: "x", color: "#111111" },
      headers: { "Idempotency-Key": value },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors["Idempotency-Key"]).toEqual([
      "The Idempotency-Key header must be 1 to 255 printable ASCII characters.",
    ]);
    expect(await count("labels", t.workspace.id)).toBe(0);
  });

  it("binds a key to the JSON body's value, not its key order or spacing; another value is a mismatch", async () => {
    const t = await createTenant();
    const key = newKey();
    const send = (rawBody: string) =>
      call("POST", "/api/v1/posts", {
        key: t.key,
        rawBody,
        headers: { ...withKey(key), "content-type": "application/json" },
      });
    const first = await send(
      JSON.stringify({
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "Ordered", media: [] }],
      }),
    );
    expect(first.status).toBe(201);
    const reordered = `{ "content": [ {"media": [], "text": "Ordered"} ],
      "accounts": [${t.accounts[0]!.id}], "workspace_id": ${t.workspace.id} }`;
    expectReplayOf(await send(reordered), first);
    // Another value is another request.
    const other = await send(
      JSON.stringify({
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "Ordered!", media: [] }],
      }),
    );
    expect(other.status).toBe(422);
    expect(await count("posts", t.workspace.id)).toBe(1);
  });

  it("accepts a key of 255 printable characters", async () => {
    const t = await createTenant();
    const key = `${"~ !".repeat(85)}`;
    expect(key).toHaveLength(255);
    const first = await createLabel(t, key);
    expect(first.status).toBe(201);
    expectReplayOf(await createLabel(t, key), first);
  });
});

describe("Idempotency-Key: concurrency and scope", () => {
  it("creates exactly one post from 20 concurrent requests with one key", async () => {
    const t = await createTenant();
    const key = newKey();
    const answers = await Promise.all(Array.from({ length: 20 }, () => createPost(t, key)));
    expect(await count("posts", t.workspace.id)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(created.filter((a) => a.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expect(answer.status).toBe(409);
      expect(answer.headers.get("retry-after")).toBe("1");
      expect(answer.body.message).toMatch(/still being processed/);
      expectDocumented("POST", "/api/v1/posts", answer);
    }
  });

  it("scopes keys per user: another user's same key is independent", async () => {
    const [a, b] = [await createTenant(), await createTenant()];
    const key = newKey();
    const first = await createLabel(a, key);
    const second = await createLabel(b, key);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.workspace.id).toBe(b.workspace.id);
    expect(await count("labels", a.workspace.id)).toBe(1);
    expect(await count("labels", b.workspace.id)).toBe(1);
  });

  it("does not replay a record older than 24 hours", async () => {
    const t = await createTenant();
    const key = newKey();
    const first = await createLabel(t, key);
    expect(first.status).toBe(201);
    await runInDurableObject(userInstance(t.user.id), (_, state) => {
      state.storage.sql.exec(
        "UPDATE idempotency SET created_at = created_at - ?, started_at = started_at - ? WHERE key = ?",
        IDEMPOTENCY_TTL_MS,
        IDEMPOTENCY_TTL_MS,
        key,
      );
    });
    const again = await createLabel(t, key);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.id).not.toBe(first.body.id);
    expect(await count("labels", t.workspace.id)).toBe(2);
  });
});

describe("Idempotency-Key: multipart uploads", () => {
  /** A multipart body serialised once, with its boundary, as a client sends it. */
  async function multipart(fields: Field[]) {
    const request = new Request(ORIGIN, { method: "POST", body: form(fields) });
    return {
      bytes: new Uint8Array(await request.arrayBuffer()),
      contentType: request.headers.get("content-type")!,
    };
  }
  const upload = async (t: Tenant, key: string, fields: Field[]) => {
    const { bytes, contentType } = await multipart(fields);
    return call("POST", "/api/v1/media/upload", {
      key: t.key,
      rawBody: bytes,
      headers: { ...withKey(key), "content-type": contentType },
    });
  };
  const fields = (t: Tenant, bytes: Uint8Array): Field[] => [
    ["workspace_id", String(t.workspace.id)],
    ["file", file(bytes, "photo.png", "image/png")],
  ];

  it("replays an upload, whatever boundary the retry draws; another file is a 422", async () => {
    const t = await createTenant();
    const key = newKey();
    const bytes = pngBytes(4096);
    const first = await upload(t, key, fields(t, bytes));
    expect(first.status).toBe(201);
    // Each serialisation draws a new boundary: the parts, not the raw bytes, are compared.
    const again = await upload(t, key, fields(t, bytes));
    expectReplayOf(again, first);
    const other = await upload(t, key, fields(t, jpegBytes(4096)));
    expect(other.status).toBe(422);
    expect(other.body.errors).toHaveProperty("Idempotency-Key");
    expect(await count("media", t.workspace.id)).toBe(1);
  });

  it("reads only the first 4 MiB of a larger upload before the handler, which still stores all of it", async () => {
    const t = await createTenant();
    const key = newKey();
    const size = FINGERPRINT_BYTES + 512 * 1024;
    const big = pngBytes(size);
    const first = await upload(t, key, fields(t, big));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.size).toBe(size);
    expectReplayOf(await upload(t, key, fields(t, big)), first);
    // A file that differs within the bytes read is another request.
    const changed = big.slice();
    changed[1024] = changed[1024]! ^ 0xff;
    const other = await upload(t, key, fields(t, changed));
    expect(other.status).toBe(422);
    expect(await count("media", t.workspace.id)).toBe(1);
  });
});

describe("Idempotency-Key: a create still running", () => {
  /** An upload whose body the test holds open after its first 4 MiB and more: the handler is running. */
  function heldUpload(t: Tenant, key: string, bytes: Uint8Array, contentType: string) {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const cut = bytes.byteLength - 64 * 1024;
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        await held;
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const answer = call("POST", "/api/v1/media/upload", {
      key: t.key,
      rawBody: body,
      headers: { ...withKey(key), "content-type": contentType },
    });
    return { answer, release };
  }

  it("refuses a repeat while the first upload runs, and after its lease too: it is never run twice", async () => {
    const t = await createTenant();
    const key = newKey();
    const request = new Request(ORIGIN, {
      method: "POST",
      body: form([
        ["workspace_id", String(t.workspace.id)],
        ["file", file(pngBytes(FINGERPRINT_BYTES + 256 * 1024), "slow.png", "image/png")],
      ]),
    });
    const bytes = new Uint8Array(await request.arrayBuffer());
    const contentType = request.headers.get("content-type")!;
    const repeat = () =>
      call("POST", "/api/v1/media/upload", {
        key: t.key,
        rawBody: bytes,
        headers: { ...withKey(key), "content-type": contentType },
      });
    const first = heldUpload(t, key, bytes, contentType);
    // The first has claimed the key once its record exists.
    const claimed = async () =>
      runInDurableObject(userInstance(t.user.id), (_, state) =>
        state.storage.sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE name = 'idempotency'").one()
          .n === 1
          ? state.storage.sql.exec("SELECT count(*) AS n FROM idempotency WHERE key = ?", key).one().n
          : 0,
      );
    for (let i = 0; i < 100 && (await claimed()) === 0; i++) await scheduler.wait(20);
    const during = await repeat();
    expect(during.status).toBe(409);
    expect(during.headers.get("Retry-After")).toBe("1");
    // The first outlasts its lease (or lost its answer): a repeat is still refused, not run.
    await runInDurableObject(userInstance(t.user.id), (_, state) => {
      state.storage.sql.exec(
        "UPDATE idempotency SET started_at = started_at - ? WHERE key = ?",
        IN_FLIGHT_LEASE_MS,
        key,
      );
    });
    const stalled = await repeat();
    expect(stalled.status).toBe(409);
    expect(stalled.headers.get("Retry-After")).toBeNull();
    expect(stalled.body.message).toMatch(/not run again/);
    expect(await count("media", t.workspace.id)).toBe(0);
    first.release();
    const done = await first.answer;
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expectReplayOf(await repeat(), done);
    expect(await count("media", t.workspace.id)).toBe(1);
  });
});

describe("Idempotency-Key: the delegation session endpoint", () => {
  it("replays the same authorize_url, and refuses another body with a coded 422", async () => {
    const app = await createApp();
    const key = newKey();
    const body = { platform: "twitter", callback_url: APP_CALLBACK, state: randomState() };
    const session = () => call("POST", SESSIONS, { key: app.key, body, headers: withKey(key) });
    const first = await session();
    expect(first.status).toBe(200);
    const again = await session();
    expectReplayOf(again, first);
    expect(again.headers.get("cache-control")).toBe("no-store");
    const other = await call("POST", SESSIONS, {
      key: app.key,
      body: { ...body, state: randomState() },
      headers: withKey(key),
    });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      code: "invalid_request",
      errors: { "Idempotency-Key": [expect.any(String)] },
    });
  });
});

describe("Idempotency-Key: the Coordinator's records", () => {
  const begin = (userId: number, key: string, fingerprint: string, now: number) =>
    userInstance(userId).beginIdempotent({ key, fingerprint, request: "POST /unit", now });

  it("frees a released key, keeps a finished one, and never takes over one in flight", async () => {
    const userId = 1_000_000 + Math.floor(Math.random() * 1_000_000);
    const now = Date.now();
    const first = await begin(userId, "k", "f1", now);
    expect(first.kind).toBe("proceed");
    expect(await begin(userId, "k", "f1", now + 1)).toEqual({ kind: "in_flight" });
    expect(await begin(userId, "k", "f2", now + 1)).toEqual({ kind: "mismatch" });
    // A 5xx: the request is released and the key may be used again.
    if (first.kind !== "proceed") throw new Error("unreachable");
    expect(await userInstance(userId).releaseIdempotent("k", first.token)).toBe(true);
    const second = await begin(userId, "k", "f2", now + 2);
    if (second.kind !== "proceed") throw new Error(`expected proceed, got ${second.kind}`);
    // Only the request holding the key finishes it. The answer arrives sealed (src/http/idempotency.ts).
    const answer = { status: 201, sealed: new Uint8Array([1, 2, 3]).buffer };
    expect(await userInstance(userId).finishIdempotent({ key: "k", token: first.token, ...answer })).toBe(
      false,
    );
    expect(await userInstance(userId).finishIdempotent({ key: "k", token: second.token, ...answer })).toBe(
      true,
    );
    const replay = await begin(userId, "k", "f2", now + 3);
    if (replay.kind !== "replay") throw new Error(`expected replay, got ${replay.kind}`);
    expect(replay.status).toBe(201);
    expect([...new Uint8Array(replay.sealed)]).toEqual([1, 2, 3]);

    // A success whose answer was too large to keep is recorded without it: a repeat learns so.
    const big = await begin(userId, "big", "f", now);
    if (big.kind !== "proceed") throw new Error(`expected proceed, got ${big.kind}`);
    expect(await userInstance(userId).finishIdempotent({ key: "big", token: big.token, status: 201 })).toBe(
      true,
    );
    expect(await begin(userId, "big", "f", now + 1)).toEqual({ kind: "unreplayable", status: 201 });

    // A request that never reported back is never taken over: past its lease it is `stalled`, until the
    // record expires with the TTL.
    expect((await begin(userId, "lost", "f", now)).kind).toBe("proceed");
    expect((await begin(userId, "lost", "f", now + IN_FLIGHT_LEASE_MS - 1)).kind).toBe("in_flight");
    expect((await begin(userId, "lost", "f", now + IN_FLIGHT_LEASE_MS)).kind).toBe("stalled");
    expect((await begin(userId, "lost", "f", now + IDEMPOTENCY_TTL_MS - 1)).kind).toBe("stalled");
    expect((await begin(userId, "lost", "f", now + IDEMPOTENCY_TTL_MS)).kind).toBe("proceed");
  });

  it("erases the plain-text answers of a table written before answers were sealed: a repeat gets no replay, and no second run", async () => {
    const userId = 4_000_000 + Math.floor(Math.random() * 1_000_000);
    const now = Date.now();
    await runInDurableObject(userInstance(userId), (_, state) => {
      // The table as it was: the answer's body and headers in plain text.
      state.storage.sql.exec(`CREATE TABLE idempotency (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,
        request TEXT NOT NULL, state TEXT NOT NULL, token TEXT NOT NULL, status INTEGER, body TEXT,
        headers TEXT, created_at INTEGER NOT NULL, started_at INTEGER NOT NULL)`);
      state.storage.sql.exec(
        "INSERT INTO idempotency VALUES ('old', 'f', 'POST /unit', 'done', 't', 201, '{\"secret\":\"whsec_x\"}', '{}', ?, ?)",
        now,
        now,
      );
    });
    expect(await begin(userId, "old", "f", now + 1)).toEqual({ kind: "unreplayable", status: 201 });
    const rows = await runInDurableObject(userInstance(userId), (_, state) =>
      state.storage.sql.exec("SELECT body, headers, sealed FROM idempotency").toArray(),
    );
    expect(rows).toEqual([{ body: null, headers: null, sealed: null }]);
  });

  it("deletes expired records in the alarm and sets it again for the oldest left", async () => {
    const userId = 2_000_000 + Math.floor(Math.random() * 1_000_000);
    const stub = userInstance(userId);
    const now = Date.now();
    expect((await begin(userId, "old", "f", now - IDEMPOTENCY_TTL_MS - 1)).kind).toBe("proceed");
    expect((await begin(userId, "new", "f", now - 1000)).kind).toBe("proceed");
    const { keys, alarm } = await runInDurableObject(stub, async (instance, state) => {
      expect(await state.storage.getAlarm()).not.toBeNull();
      await instance.alarm();
      return {
        keys: state.storage.sql.exec<{ key: string }>("SELECT key FROM idempotency").toArray(),
        alarm: await state.storage.getAlarm(),
      };
    });
    expect(keys.map((k) => k.key)).toEqual(["new"]);
    expect(alarm).toBe(now - 1000 + IDEMPOTENCY_TTL_MS);
  });
});

describe("Idempotency-Key: the OpenAPI document", () => {
  it("lists the header with 409 and 422 on creating routes only", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const header = (op: { parameters?: Array<{ name: string; in: string }> }) =>
      (op.parameters ?? []).some((p) => p.name === "Idempotency-Key" && p.in === "header");
    for (const [path, method] of [
      ["/api/v1/posts", "post"],
      ["/api/v1/posts/{id}/retry", "post"],
      ["/api/v1/labels", "post"],
      ["/api/v1/folders", "post"],
      ["/api/v1/media/upload/url", "post"],
      ["/api/v1/media/upload", "post"],
      ["/api/v1/accounts/connect", "post"],
      ["/api/v1/webhooks", "post"],
      ["/api/oauth/delegate/sessions", "post"],
    ] as const) {
      const op = doc.paths[path][method];
      expect(header(op), `${method} ${path}`).toBe(true);
      expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["409", "422"]));
    }
    expect(header(doc.paths["/api/v1/posts/{id}"].put)).toBe(false);
    expect(header(doc.paths["/api/v1/posts"].get)).toBe(false);
    expect(header(doc.paths["/api/v1/posts/validate"].post)).toBe(false);
  });
});
