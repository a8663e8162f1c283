// The cron's token keep-alive (src/accounts/keep-alive.ts): idle accounts' tokens refreshed ahead of their
// end by each platform's rule, on the emulators, with SANDBOX_TIME_SCALE=43200 (a 60-day token lives two
// minutes; "a day old" is two seconds); the sweep's bounds and skips; a refusal marks the account once;
// a refresh never writes tokens onto an account disconnected meanwhile.
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { dueAccounts, keepTokensAlive } from "../../src/accounts/keep-alive";
import { refreshStoredToken } from "../../src/accounts/tokens";
import { createDb } from "../../src/db/client";
import { shardDatabases } from "../../src/db/shards";
import worker from "../../src/index";
import { encryptSecret } from "../../src/lib/crypto";
import { publishingAdapter } from "../../src/platforms/index";
import { accountRow, connected, published, statsOf } from "../sandbox/support";
import { call } from "../support/client";
import { insertMedia } from "../support/db";
import { createAccount, createUser, createWorkspace } from "../support/seed";

const SCALE = 43_200;
/** One documented day on the sandbox's clock: two seconds. */
const DAY_MS = (86_400 * 1000) / SCALE;

const vars = env as unknown as Record<string, string>;
const original = vars.SANDBOX_TIME_SCALE;
beforeAll(() => {
  // The emulators and the service read the worker's env: this file's runtime is its own (isolated).
  vars.SANDBOX_TIME_SCALE = String(SCALE);
});
afterAll(() => {
  if (original === undefined) delete vars.SANDBOX_TIME_SCALE;
  else vars.SANDBOX_TIME_SCALE = original;
});
afterEach(() => {
  vi.useRealTimers();
});

const runCron = (at: number) =>
  worker.scheduled(createScheduledController({ scheduledTime: at, cron: "* * * * *" }), env);

/** Fake time moved on by `ms`, the cron run every (real) minute on the way. */
async function idle(ms: number, cronEvery = 30_000) {
  let now = Date.now();
  const end = now + ms;
  while (now < end) {
    now = Math.min(end, now + cronEvery);
    vi.setSystemTime(now);
    await runCron(now);
  }
}

describe("the keep-alive on the emulators (SANDBOX_TIME_SCALE=43200)", () => {
  it("an Instagram and a Threads account left idle for 100 days still publish: the cron kept their tokens alive", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const instagram = await connected("instagram");
    const threads = await connected("threads");
    const before = await accountRow(instagram.accountId);
    // The long-lived token's 60 days are two minutes here.
    expect(Number(before.token_expires_at) - Date.now()).toBeLessThanOrEqual(60 * DAY_MS + 1000);

    await idle(100 * DAY_MS);

    for (const [platform, account] of [
      ["instagram", instagram],
      ["threads", threads],
    ] as const) {
      const row = await accountRow(account.accountId);
      expect(row.expired_at).toBeNull();
      expect(Number(row.token_expires_at)).toBeGreaterThan(Date.now());
      expect(Number(row.last_refreshed_at)).toBeGreaterThan(0);
      // Renewed at half its life each time: day 30, 60 and 90 (give or take a cron run).
      const refreshes = (await statsOf(platform, account.handle)).token_refreshes;
      expect(refreshes).toBeGreaterThanOrEqual(3);
      expect(refreshes).toBeLessThanOrEqual(4);
    }
    const photo = await insertMedia(instagram.workspace.id, { mime_type: "image/jpeg" });
    const ig = await published(instagram, { content: [{ text: "Day 100", media: [photo] }] });
    expect(ig.rows[0]!.status).toBe("PUBLISHED");
    const th = await published(threads, { content: [{ text: "Day 100 too" }] });
    expect(th.rows[0]!.status).toBe("PUBLISHED");
  });

  it("without the keep-alive, the same idle Instagram account is lost at day 60", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const instagram = await connected("instagram");
    vi.setSystemTime(Date.now() + 100 * DAY_MS);
    const photo = await insertMedia(instagram.workspace.id, { mime_type: "image/jpeg" });
    const { rows } = await published(instagram, { content: [{ text: "Too late", media: [photo] }] });
    expect(rows[0]!.status).toBe("FAILED");
    expect((await accountRow(instagram.accountId)).expired_at).not.toBeNull();
  });

  it("a refresh refused for good marks the account reauth_required, once; the next runs leave it alone", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    const account = await connected("instagram");
    const revoked = await call("POST", `/sandbox/instagram/accounts/${account.handle}/revoke`);
    expect(revoked.status).toBe(200);
    vi.setSystemTime(Date.now() + 31 * DAY_MS);
    const first = await keepTokensAlive(env, new Date());
    expect(first).toContainEqual({ accountId: account.accountId, result: "expired" });
    const marked = await accountRow(account.accountId);
    expect(marked.expired_at).not.toBeNull();
    expect(marked.last_error).toBeTruthy();
    const shown = await call("GET", `/api/v1/accounts/${account.accountId}`, { key: account.key });
    expect(shown.body.health).toMatchObject({ status: "reauth_required" });

    vi.setSystemTime(Date.now() + DAY_MS);
    const second = await keepTokensAlive(env, new Date());
    expect(second.map((o) => o.accountId)).not.toContain(account.accountId);
    expect((await accountRow(account.accountId)).expired_at).toBe(marked.expired_at);
  });
});

describe("the keep-alive sweep", () => {
  /** A connected X account whose last refresh is `daysAgo` documented days back. */
  async function idleTwitter(workspaceId: number, daysAgo: number, extra: Record<string, number> = {}) {
    const { id } = await createAccount(workspaceId, "twitter");
    const columns = Object.keys(extra)
      .map((column) => `, ${column} = ?`)
      .join("");
    await env.DB.prepare(
      `UPDATE accounts SET access_token_enc = ?, refresh_token_enc = ?, token_expires_at = ?, last_refreshed_at = ?${columns} WHERE id = ?`,
    )
      .bind(
        await encryptSecret(env.ENCRYPTION_KEY, "access"),
        await encryptSecret(env.ENCRYPTION_KEY, "refresh"),
        Date.now() - daysAgo * DAY_MS,
        Date.now() - daysAgo * DAY_MS,
        ...Object.values(extra),
        id,
      )
      .run();
    return id as number;
  }

  it("is bounded per run, longest overdue first, and skips disconnected and expired accounts", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id);
    // Far older than anything else this file connects: these come first.
    const gone = await idleTwitter(workspace.id, 100_004, { disconnected_at: Date.now() });
    const lost = await idleTwitter(workspace.id, 100_003, { expired_at: Date.now() });
    const oldest = await idleTwitter(workspace.id, 100_002);
    const older = await idleTwitter(workspace.id, 100_001);
    const old = await idleTwitter(workspace.id, 100_000);
    const fresh = await idleTwitter(workspace.id, 10);
    const db = shardDatabases(env).at(0);
    expect(await dueAccounts(env, db, Date.now(), 2)).toEqual([oldest, older]);
    const all = await dueAccounts(env, db, Date.now(), 1000);
    expect(all).toEqual(expect.arrayContaining([oldest, older, old]));
    expect(all).not.toContain(gone);
    expect(all).not.toContain(lost);
    // X's rule is monthly: ten days since the last refresh is not due.
    expect(all).not.toContain(fresh);
  });
});

describe("what the keep-alive reads", () => {
  /** The rows the keep-alive's statements read (each run again on its own, for its `rows_read`). */
  async function rowsRead(now: number) {
    const statements: Array<{ query: string; params: unknown[] }> = [];
    const d1 = {
      prepare: (query: string) => {
        const statement = env.DB.prepare(query);
        return Object.assign(Object.create(statement), {
          bind: (...params: unknown[]) => {
            statements.push({ query, params });
            return statement.bind(...params);
          },
        });
      },
      batch: (batch: D1PreparedStatement[]) => env.DB.batch(batch),
    } as unknown as D1Database;
    await dueAccounts(env, createDb(d1), now);
    let rows = 0;
    for (const { query, params } of statements)
      rows += (
        await env.DB.prepare(query)
          .bind(...params)
          .all()
      ).meta.rows_read;
    return rows;
  }

  it("reads the accounts due, not every account: thirty more that are not due cost nothing", async () => {
    const user = await createUser();
    const workspace = await createWorkspace(user.id);
    const now = Date.now();
    const before = await rowsRead(now);
    for (let i = 0; i < 30; i++) {
      const { id } = await createAccount(workspace.id, "twitter");
      await env.DB.prepare(
        "UPDATE accounts SET access_token_enc = 'a', refresh_token_enc = 'r', last_refreshed_at = ? WHERE id = ?",
      )
        .bind(now - 10 * DAY_MS, id)
        .run();
    }
    expect(await rowsRead(now)).toBe(before);
  });
});

describe("a refresh and a disconnect", () => {
  it("never writes the new tokens onto an account disconnected during the refresh", async () => {
    const account = await connected("twitter");
    const row = await accountRow(account.accountId);
    const adapter = publishingAdapter(env, "twitter", "live");
    const result = await refreshStoredToken(env, account.accountId, row.accessToken, {
      // The platform answers the refresh, then the disconnect commits before the new tokens are written
      // (the disconnect revokes the grant at X, so it must land after the platform's answer).
      refresh: async (_platform, refreshToken) => {
        const token = await adapter.refreshToken(refreshToken);
        const gone = await call("DELETE", `/api/v1/accounts/${account.accountId}`, { key: account.key });
        expect(gone.status).toBeLessThan(300);
        return token;
      },
    });
    expect(result).toMatchObject({ kind: "failed", code: "account_disconnected" });
    const after = await accountRow(account.accountId);
    expect(after.disconnected_at).not.toBeNull();
    expect(after.access_token_enc).toBeNull();
    expect(after.refresh_token_enc).toBeNull();
    expect(after.expired_at).toBeNull();
  });
});
