#!/usr/bin/env node
// `npm run bench:cron`: the rows one cron tick reads, for the analytics refresh and the token keep-alive,
// at 10,000, 100,000 and 1,000,000 accounts (one published platform row each). Each size gets a fresh
// local D1 (`wrangler d1 migrations apply --local`, then SQL seeded in bulk by recursive CTEs with
// `wrangler d1 execute --local`): 1,000 users (50 of them with a canceled subscription), their
// workspaces, N accounts over the eight platforms, N posts published 10–300 days ago and synced an hour
// ago (not due), of which a fixed 150 are due (50 of them a lapsed owner's) and 60 accounts due a refresh.
// The tick's statements are the worker's own (claimDueRows, dueAccounts, run under tsx on a D1 stand-in
// that records them), run on the seeded database through the platform proxy; the figure is each
// statement's `meta.rows_read`, with its EXPLAIN QUERY PLAN.
//   npm run bench:cron [-- 10000 100000]
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

// The worker's modules import the runtime's own (`cloudflare:workers`, for the Durable Object classes):
// none of it runs here, so a stand-in is enough.
registerHooks({
  resolve: (specifier, context, next) =>
    specifier.startsWith("cloudflare:")
      ? {
          url: "data:text/javascript,export class DurableObject {} export const env = {}, exports = {};",
          shortCircuit: true,
        }
      : next(specifier, context),
});
const { dueAccounts } = await import("../src/accounts/keep-alive.ts");
const { claimDueRows } = await import("../src/analytics/refresh.ts");
const { createDb } = await import("../src/db/client.ts");
const { getPlatformProxy } = await import("wrangler");

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");
const SIZES = process.argv.slice(2).map(Number).filter(Boolean);
const NOW = Date.UTC(2026, 10, 1);
const DAY = 86_400_000;
const USERS = 1000;
const DUE_ROWS = 150;
/** Of the due rows, those of users 2…51, whose subscription is canceled. */
const LAPSED_ROWS = 50;
const DUE_ACCOUNTS = 60;
const PLATFORMS = [
  "twitter",
  "linkedin",
  "instagram",
  "facebook",
  "threads",
  "tiktok",
  "youtube",
  "pinterest",
];

const ENV = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
  NO_COLOR: "1",
};

function wrangler(args, timeout = 900_000) {
  const run = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    env: ENV,
    encoding: "utf8",
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0)
    throw new Error(`wrangler ${args[0]} ${args[1]} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

const upTo = (n) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

function seedSql(n) {
  const platform = `CASE i % 8 ${PLATFORMS.map((p, k) => `WHEN ${k} THEN '${p}'`).join(" ")} END`;
  return [
    `${upTo(USERS)} INSERT INTO users (id, name, email, created_at, updated_at)
      SELECT i, 'Bench ' || i, 'bench-' || i || '@bench.test', ${NOW - 400 * DAY}, ${NOW - 400 * DAY} FROM n;`,
    `${upTo(USERS)} INSERT INTO subscriptions (user_id, status, updated_at)
      SELECT i, CASE WHEN i BETWEEN 2 AND ${1 + LAPSED_ROWS} THEN 'canceled' ELSE 'active' END, ${NOW} FROM n;`,
    `${upTo(USERS)} INSERT INTO workspaces (id, name, slug, type, timezone, language, created_at, updated_at)
      SELECT i, 'Bench ' || i, 'bench-' || i, 'PERSONAL', 'UTC', 'en', ${NOW - 400 * DAY}, ${NOW - 400 * DAY} FROM n;`,
    `${upTo(USERS)} INSERT INTO workspace_members (workspace_id, user_id, created_at) SELECT i, i, ${NOW} FROM n;`,
    // Account i: tokens refreshed a day ago and good for 60 days, but the first DUE_ACCOUNTS (an expired
    // token, a refresh 40 days back: due under any rule); every 20th is disconnected, with an old token.
    `${upTo(n)} INSERT INTO accounts (id, workspace_id, platform, platform_user_id, username, name,
        access_token_enc, refresh_token_enc, token_expires_at, last_refreshed_at, disconnected_at, created_at, updated_at)
      SELECT i, 1 + i % ${USERS}, ${platform}, 'u' || i, 'bench' || i, 'Bench ' || i,
        CASE WHEN i % 20 = 0 THEN NULL ELSE 'a' END, CASE WHEN i % 20 = 0 THEN NULL ELSE 'r' END,
        CASE WHEN i <= ${DUE_ACCOUNTS} OR i % 20 = 0 THEN ${NOW - DAY} ELSE ${NOW + 60 * DAY} END,
        CASE WHEN i <= ${DUE_ACCOUNTS} OR i % 20 = 0 THEN ${NOW - 40 * DAY} ELSE ${NOW - DAY} END,
        CASE WHEN i % 20 = 0 THEN ${NOW - DAY} END, ${NOW - 400 * DAY}, ${NOW} FROM n;`,
    `${upTo(n)} INSERT INTO posts (id, workspace_id, user_id, status, content, created_at, updated_at)
      SELECT i, 1 + i % ${USERS}, 1 + i % ${USERS}, 'PUBLISHED', json_array('Post ' || i), ${NOW - 300 * DAY}, ${NOW - 300 * DAY} FROM n;`,
    // Row i: published 10–300 days ago, synced an hour ago, but the first DUE_ROWS (published 2–28 days
    // ago, within the refresh's 30 days, and synced two days ago), of which rows 1–50 (users 2–51) are
    // lapsed owners'.
    `${upTo(n)} INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, platform_post_id,
        post_url, posted_on, analytics_synced_at, created_at, updated_at)
      SELECT i, i, ${platform}, 'PUBLISHED', '{}', '{}', 'p' || i, 'https://example.com/' || i,
        json_array(${NOW} - CASE WHEN i <= ${DUE_ROWS} THEN 2 + i % 27 ELSE 10 + i % 290 END * ${DAY}),
        CASE WHEN i <= ${DUE_ROWS} THEN ${NOW - 2 * DAY} ELSE ${NOW - 3_600_000} END,
        ${NOW - 300 * DAY}, ${NOW - 300 * DAY} FROM n;`,
    "",
  ].join("\n");
}

/** The statements one tick at `now` runs, recorded by a D1 stand-in (answers nothing), params inlined. */
async function tickStatements(now, tick) {
  const statements = [];
  const inline = (query, params) => {
    let k = 0;
    return query.replace(/\?/g, () => {
      const value = params[k++];
      return typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : String(value);
    });
  };
  const statement = (query) => ({
    bind: (...params) => {
      statements.push(inline(query, params));
      return statement(query);
    },
    all: async () => ({ results: [] }),
    raw: async () => [],
    run: async () => ({ results: [] }),
  });
  const d1 = {
    prepare: (query) => statement(query),
    batch: async (batch) => batch.map(() => ({ results: [] })),
  };
  const db = createDb(d1);
  await claimDueRows(db, now);
  const refresh = statements.length;
  await dueAccounts({ SANDBOX: "false" }, db, now);
  return statements.map((sql, k) => ({ tick, part: k < refresh ? "refresh" : "keep-alive", sql }));
}

// Two ticks a minute apart: the first finds more rows due than its limit, the second the rest (fewer
// than the limit, where a walk that is not bounded by the due time would read on to the end).
const statements = [...(await tickStatements(NOW, 1)), ...(await tickStatements(NOW + 60_000, 2))];
const rows = [];
for (const n of SIZES.length ? SIZES : [10_000, 100_000, 1_000_000]) {
  const state = mkdtempSync(join(tmpdir(), "bench-cron-"));
  try {
    wrangler(["d1", "migrations", "apply", "DB", "--local", "--persist-to", state]);
    const file = join(state, "seed.sql");
    writeFileSync(file, seedSql(n));
    const started = performance.now();
    wrangler(["d1", "execute", "DB", "--local", "--persist-to", state, "--file", file, "--yes"]);
    const seeded = (performance.now() - started) / 1000;
    // `wrangler d1 execute --local` does not report rows read; the same local database opened through
    // the platform proxy (the binding the worker sees) does.
    const proxy = await getPlatformProxy({
      configPath: join(ROOT, "wrangler.toml"),
      persist: { path: join(state, "v3") },
    });
    const figures = [];
    try {
      const seededRows = await proxy.env.DB.prepare("SELECT count(*) AS n FROM post_platforms").first("n");
      if (seededRows !== n) throw new Error(`seeded ${seededRows} rows, not ${n}`);
      for (const { tick, part, sql } of statements) {
        const plan = (await proxy.env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).all()).results.map(
          (r) => r.detail,
        );
        const result = await proxy.env.DB.prepare(sql).all();
        figures.push({ tick, part, rowsRead: result.meta.rows_read, answered: result.results.length, plan });
      }
    } finally {
      await proxy.dispose();
    }
    const sum = (tick, part, key) =>
      figures.filter((f) => f.tick === tick && f.part === part).reduce((total, f) => total + f[key], 0);
    rows.push({
      n,
      seeded,
      figures: [1, 2].map((tick) => ({
        tick,
        refresh: sum(tick, "refresh", "rowsRead"),
        claimed: sum(tick, "refresh", "answered"),
        keepAlive: sum(tick, "keep-alive", "rowsRead"),
        due: sum(tick, "keep-alive", "answered"),
      })),
    });
    process.stdout.write(`${n} accounts seeded in ${seeded.toFixed(0)} s\n`);
    for (const f of figures)
      process.stdout.write(
        `  tick ${f.tick}, ${f.part}: ${f.rowsRead} rows read, ${f.answered} answered; ${f.plan.join(" | ")}\n`,
      );
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}
process.stdout.write(
  "\n| accounts (rows) | tick | refresh: rows read | rows claimed | keep-alive: rows read | accounts due |\n|---:|---:|---:|---:|---:|---:|\n",
);
const number = (x) => x.toLocaleString("en");
for (const { n, figures } of rows)
  for (const f of figures)
    process.stdout.write(
      `| ${number(n)} | ${f.tick} | ${number(f.refresh)} | ${f.claimed} | ${number(f.keepAlive)} | ${f.due} |\n`,
    );
