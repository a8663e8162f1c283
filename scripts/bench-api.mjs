#!/usr/bin/env node
// `npm run bench:api`: what the API's main routes cost, measured in one run against `wrangler dev` on a
// fresh local state (test/e2e/worker.mjs), offline. Before the worker starts, the local D1 is seeded in
// SQL (`wrangler d1 execute --local`): a small workspace (100 published posts, each with 2 platform rows
// carrying metrics, 3 labels, 2 media, 1 comment) and a big one (100,000 draft posts, 1 platform row
// each). Two groups of users: "small" users are members of the small workspace only, "big" users of the
// big one only (a post list shows every workspace of the user). One API key per user is made through the
// operator API once the worker answers, and each key is warmed once (the service caches keys per
// isolate). Every route then gets a few unmeasured warm-up requests (the first answer of the lists and
// of analytics is checked against the seed: totals, page size), a one-at-a-time phase (wall time of
// each request, body read included: p50 and p99) and an 8-concurrent phase (8 workers pulling from one
// queue: requests per second). Requests go round-robin over the route's users, so that no user makes
// more than USER_BUDGET requests in the whole run (the API allows 60 per user per minute): any 429, or
// any status but the expected one, fails the run. `hops`, `db trips` and `rows read` are the medians of
// what each answer's Server-Timing says (`hops;desc`, `db;desc`, `rows;desc`); "–" when it does not say
// (older versions report `db` and `gate` only; `GET /` reports nothing). Bounded in time; the worker is
// stopped either way.
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { adminCall, startWorker } from "../test/e2e/worker.mjs";
import { BIG_POSTS, SMALL, SMALL_POSTS, seed } from "./bench-api-seed.mjs";
import { benchRun } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const RUN_DEADLINE_MS = 8 * 60_000;
const SEQUENTIAL = 100; // requests per route, one at a time
const CONCURRENT = 200; // requests per route, CONCURRENCY at a time
const CONCURRENCY = 8;
const WARM = 5; // unmeasured requests per route before its phases
const USER_BUDGET = 50; // requests per user over the whole run (the limit is 60 a minute)
const MIN_USERS_PER_GROUP = 64;

const { cleanup, fail, stop } = benchRun("bench:api", RUN_DEADLINE_MS);

// The routes, in the order they run: the create runs last, since it adds posts to the small workspace.
/** A list answer's sanity check: its total and its page's size (and, for the oldest page, its last post). */
const page = (total, size, lastId) => (body) => {
  const ok =
    body.total === total &&
    body.data?.length === size &&
    (lastId === undefined || body.data.at(-1).id === lastId);
  if (!ok)
    throw new Error(
      `expected total ${total} and ${size} posts${lastId ? ` ending with post ${lastId}` : ""}, got total ${body.total}, ${body.data?.length} posts ending with ${body.data?.at(-1)?.id}: is the seed right?`,
    );
};
const ROUTES = [
  { name: "`GET /` (bare)", path: "/", group: null },
  // The authenticated bare route: the gate (key, rate window) and one small read, no work of its own.
  { name: "`GET /api/v1/me` (authenticated bare)", path: "/api/v1/me", group: "all" },
  { name: "`GET /api/v1/workspaces`", path: "/api/v1/workspaces", group: "all" },
  {
    name: "`GET /api/v1/posts?per_page=100`, 100 posts",
    path: "/api/v1/posts?per_page=100",
    group: "small",
    check: page(SMALL_POSTS, 100),
  },
  {
    name: "`GET /api/v1/posts?per_page=100`, 100,000 posts, page 1",
    path: "/api/v1/posts?per_page=100",
    group: "big",
    check: page(BIG_POSTS, 100),
  },
  {
    name: "`GET /api/v1/posts?per_page=100&page=1000`, 100,000 posts",
    path: "/api/v1/posts?per_page=100&page=1000",
    group: "big",
    check: page(BIG_POSTS, 100, SMALL_POSTS + 1),
  },
  {
    // The same page as next_page_url reaches it: page 999 ended with post 201 (the big workspace's posts
    // are 101..100100, newest first). Versions without before_id ignore it and page by offset.
    name: "the same page 1,000 through `next_page_url` (`before_id`)",
    path: "/api/v1/posts?per_page=100&page=1000&before_id=201",
    group: "big",
    check: page(BIG_POSTS, 100, SMALL_POSTS + 1),
  },
  {
    name: "`GET /api/v1/analytics`, 100 posts",
    path: "/api/v1/analytics",
    group: "small",
    check: (body) => {
      // Each seeded post has 2 published rows with likes i % 7 and impressions 100 + i (seedSql).
      const posts = Array.from({ length: SMALL_POSTS }, (_, k) => k + 1);
      const likes = 2 * posts.reduce((sum, i) => sum + (i % 7), 0);
      const impressions = 2 * posts.reduce((sum, i) => sum + 100 + i, 0);
      if (body.total?.likes !== likes || body.total?.impressions !== impressions)
        throw new Error(
          `expected ${likes} likes and ${impressions} impressions, got ${JSON.stringify(body.total)}: is the seed right?`,
        );
    },
  },
  {
    name: "`POST /api/v1/posts` (draft, 1 account, 1 item)",
    path: "/api/v1/posts",
    method: "POST",
    status: 201,
    group: "small",
    body: (n) => ({ workspace_id: SMALL, accounts: [1], content: [{ text: `Bench draft ${n}` }] }),
  },
];

/** Users per group, so that round-robin keeps every user within USER_BUDGET (one request warms each key). */
function usersPerGroup() {
  const perRoute = WARM + SEQUENTIAL + CONCURRENT;
  const load = (group) =>
    ROUTES.filter((r) => r.group === group).length * perRoute +
    Math.ceil((ROUTES.filter((r) => r.group === "all").length * perRoute) / 2);
  const needed = Math.ceil(Math.max(load("small"), load("big")) / (USER_BUDGET - 2));
  return Math.max(MIN_USERS_PER_GROUP, needed);
}

// Requests ---------------------------------------------------------------------------------------------

/** Each user's key and how many requests it has made; round-robin per pool. */
class Users {
  constructor(keys, perGroup) {
    this.keys = keys; // index i: user i + 1
    this.used = keys.map(() => 0);
    this.pools = {
      small: keys.map((_, i) => i).slice(0, perGroup),
      big: keys.map((_, i) => i).slice(perGroup),
      all: keys.map((_, i) => i),
    };
    this.next = { small: 0, big: 0, all: 0 };
  }
  take(group) {
    const pool = this.pools[group];
    const index = pool[this.next[group]++ % pool.length];
    if (++this.used[index] > USER_BUDGET)
      throw new Error(`user ${index + 1} would exceed ${USER_BUDGET} requests: raise the user count`);
    return this.keys[index];
  }
}

let created = 0;

/** One request: wall time (body read included) and its Server-Timing figures; throws on a wrong status. */
async function call(base, route, users, check = false) {
  const headers = {};
  if (route.group) headers.authorization = `Bearer ${users.take(route.group)}`;
  let body;
  if (route.body) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(route.body(++created));
  }
  const started = performance.now();
  const res = await fetch(`${base}${route.path}`, {
    method: route.method ?? "GET",
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  const bytes = new TextEncoder().encode(text).length;
  const expected = route.status ?? 200;
  if (res.status !== expected)
    throw new Error(
      `${route.method ?? "GET"} ${route.path} answered ${res.status}, not ${expected}${res.status === 429 ? " (rate limited: the per-user budget is wrong)" : ""}: ${text.slice(0, 2000)}`,
    );
  if (check && route.check) route.check(JSON.parse(text));
  return { ms, bytes, ...serverTiming(res.headers.get("server-timing")) };
}

/** `db;dur=1.2;desc="3", gate;dur=0.4, hops;desc="1", rows;desc="12"` → {db: 3, dbMs: 1.2, hops: 1, rows: 12}. */
function serverTiming(header) {
  const figures = {};
  for (const entry of (header ?? "").split(",")) {
    const [name, ...params] = entry.trim().split(";");
    const dur = params.map((p) => /^\s*dur=([\d.]+)\s*$/.exec(p)).find(Boolean);
    if (name === "db" && dur) figures.dbMs = Number(dur[1]);
    const desc = params.map((p) => /^\s*desc="?([^"]*)"?\s*$/.exec(p)).find(Boolean);
    if (desc && ["db", "hops", "rows"].includes(name) && desc[1] !== "" && Number.isFinite(Number(desc[1])))
      figures[name] = Number(desc[1]);
  }
  return figures;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

async function measure(base, route, users) {
  for (let i = 0; i < WARM; i++) await call(base, route, users, i === 0);
  const sequential = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await call(base, route, users));
  const concurrent = [];
  let left = CONCURRENT;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left -= 1;
        concurrent.push(await call(base, route, users));
      }
    }),
  );
  const elapsed = performance.now() - started;
  const all = [...sequential, ...concurrent];
  const median = (name) => {
    const values = all.map((r) => r[name]).filter((v) => v !== undefined);
    return values.length === all.length ? percentile(values, 50) : undefined;
  };
  const times = sequential.map((r) => r.ms);
  const dbTimes = sequential.map((r) => r.dbMs).filter((v) => v !== undefined);
  return {
    route,
    rps: (CONCURRENT / elapsed) * 1000,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    hops: median("hops"),
    db: median("db"),
    rows: median("rows"),
    // Of the one-at-a-time p50, what the database took (Server-Timing's db dur) and the answer's size.
    dbMs: dbTimes.length === sequential.length ? percentile(dbTimes, 50) : undefined,
    kb:
      percentile(
        sequential.map((r) => r.bytes),
        50,
      ) / 1024,
  };
}

function table(results) {
  const bare = results[0].p50;
  const me = results[1].p50;
  const figure = (v) => (v === undefined ? "–" : String(v));
  const rows = results.map((r) => [
    r.route.name,
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    `${(r.p50 / bare).toFixed(1)}×`,
    `${(r.p50 / me).toFixed(1)}×`,
    figure(r.hops),
    figure(r.db),
    figure(r.rows),
    r.dbMs === undefined ? "–" : r.dbMs.toFixed(1),
    r.kb.toFixed(1),
  ]);
  const head = [
    "route",
    `req/s (${CONCURRENCY} concurrent)`,
    "p50 ms (one at a time)",
    "p99 ms",
    "× bare (p50)",
    "× me (p50)",
    "hops",
    "db trips",
    "rows read",
    "db ms (p50)",
    "answer KB",
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(head), rule, ...rows.map(line)].join("\n");
}

function revision() {
  const git = (...args) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
  const head = git("rev-parse", "--short", "HEAD").stdout?.trim() || "unknown";
  // What the worker runs: the service's sources, migrations and configuration.
  const paths = ["--", "src", "migrations", "wrangler.toml"];
  const dirty =
    git("diff", "--quiet", "HEAD", ...paths).status !== 0 ||
    git("ls-files", "--others", "--exclude-standard", ...paths).stdout?.trim();
  return dirty ? `${head} + uncommitted changes to src/ or migrations/` : head;
}

try {
  const perGroup = usersPerGroup();
  let seedMs = 0;
  const base = await startWorker(cleanup, {
    onState(state) {
      seedMs = seed(ROOT, state, perGroup);
    },
  });
  process.stderr.write(
    `wrangler dev on ${base}; seeded ${SMALL_POSTS} + ${BIG_POSTS} posts and ${2 * perGroup} users in ${(seedMs / 1000).toFixed(1)} s\n`,
  );
  const keys = [];
  for (let id = 1; id <= 2 * perGroup; id++) {
    const { key } = await adminCall(base, "POST", "/api-keys", {
      user_id: id,
      abilities: ["posts", "workspaces", "accounts", "labels"],
    });
    keys.push(key);
  }
  const users = new Users(keys, perGroup);
  const warmKeys = { name: "warm-up", path: "/api/v1/workspaces", group: "all" };
  for (let i = 0; i < keys.length; i++) await call(base, warmKeys, users);
  process.stderr.write(`${keys.length} keys made and warmed\n`);

  const results = [];
  for (const route of ROUTES) {
    const result = await measure(base, route, users);
    process.stderr.write(`${route.name}: p50 ${result.p50.toFixed(1)} ms, ${result.rps.toFixed(0)} req/s\n`);
    results.push(result);
  }
  const busiest = Math.max(...users.used);
  process.stdout.write(
    [
      `bench:api on ${new Date().toISOString()}, node ${process.version}, ${revision()}: wrangler dev (local), ` +
        `${SEQUENTIAL} requests one at a time then ${CONCURRENT} at ${CONCURRENCY} concurrent per route ` +
        `(after ${WARM} warm-ups); ${2 * perGroup} users, at most ${busiest} requests each`,
      "",
      table(results),
      "",
    ].join("\n"),
  );
} catch (error) {
  console.error(`bench:api failed: ${error.stack ?? error.message}`);
  fail();
} finally {
  await stop();
}
