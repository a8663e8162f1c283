#!/usr/bin/env node
// `node scripts/bench-api-ab.mjs <other checkout>`: a before/after of the routes that decide issue 29's
// figure (`GET /`, `GET /api/v1/me`, the 100-post page) measured side by side in one run: this checkout's
// worker and the other's (e.g. `mkdir /tmp/base && git archive <rev> | tar -x -C /tmp/base && ln -s
// "$PWD/node_modules" /tmp/base/node_modules`), each on its own fresh state seeded alike
// (bench-api-seed.mjs), and every round asks both, in a random order, so that both see the same machine
// load (on a shared machine two runs of bench:api minutes apart do not). Prints each route's p25, p50
// and p90 per checkout, the ratios to `GET /` and `/me`, and whether the two checkouts' page answers are
// the same bytes (ports and link signatures masked: the origins differ).
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { seed } from "./bench-api-seed.mjs";
import { benchRun } from "./lib.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = 150; // requests per route and checkout
const WARM = 5;
const USERS = 64; // the small workspace's members: each makes ~6 requests per checkout, far below 60 a minute

const other = process.argv[2];
if (!other) {
  console.error("usage: node scripts/bench-api-ab.mjs <path of the checkout to compare with>");
  process.exit(2);
}
const CHECKOUTS = { before: resolve(other), after: ROOT };
const ROUTES = [
  { name: "`GET /` (bare)", path: "/", auth: false },
  { name: "`GET /api/v1/me`", path: "/api/v1/me", auth: true },
  { name: "`GET /api/v1/posts?per_page=100`, 100 posts", path: "/api/v1/posts?per_page=100", auth: true },
];

const { cleanup, fail, stop } = benchRun("bench-api-ab", 10 * 60_000);

/** Each checkout's worker: its origin, keys (users 1..USERS) and the next key to use. */
async function start(root) {
  // Each checkout's own harness, so its worker runs its own sources.
  const { adminCall, startWorker } = await import(join(root, "test", "e2e", "worker.mjs"));
  const base = await startWorker(cleanup, { onState: (state) => void seed(root, state, USERS) });
  const keys = [];
  for (let id = 1; id <= USERS; id++)
    keys.push((await adminCall(base, "POST", "/api-keys", { user_id: id, abilities: ["posts"] })).key);
  const worker = { base, keys, next: 0 };
  // Each key once: the service caches keys per isolate, and a first use would count as the route's.
  for (let i = 0; i < USERS; i++) await call(worker, ROUTES[1]);
  return worker;
}

async function call(worker, route) {
  const headers = route.auth ? { authorization: `Bearer ${worker.keys[worker.next++ % USERS]}` } : {};
  const started = performance.now();
  const res = await fetch(`${worker.base}${route.path}`, { headers, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${route.path} answered ${res.status}: ${text.slice(0, 500)}`);
  return { ms, text };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

try {
  const workers = {};
  for (const [name, root] of Object.entries(CHECKOUTS)) workers[name] = await start(root);
  const p50 = {};
  const lines = [];
  const pages = {};
  for (const route of ROUTES) {
    const times = { before: [], after: [] };
    for (const name of Object.keys(workers))
      for (let i = 0; i < WARM; i++) pages[name] = (await call(workers[name], route)).text;
    for (let round = 0; round < ROUNDS; round++) {
      const order = Math.random() < 0.5 ? ["before", "after"] : ["after", "before"];
      for (const name of order) times[name].push((await call(workers[name], route)).ms);
    }
    for (const name of Object.keys(workers)) {
      p50[`${route.path} ${name}`] = percentile(times[name], 50);
      lines.push({ route: route.name, name, values: times[name] });
    }
  }
  const mask = (text) => text.replace(/127\.0\.0\.1:\d+/g, "HOST").replace(/sig=[0-9a-f]+/g, "sig=SIG");
  process.stdout.write(
    `bench-api-ab on ${new Date().toISOString()}: before = ${CHECKOUTS.before}, after = ${CHECKOUTS.after}; ${ROUNDS} rounds per route, each asking both in a random order\n\n` +
      "| route | checkout | p25 ms | p50 ms | p90 ms | × bare (p50) | × me (p50) |\n|---|---|---:|---:|---:|---:|---:|\n" +
      lines
        .map(
          ({ route, name, values }) =>
            `| ${route} | ${name} | ${percentile(values, 25).toFixed(1)} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 90).toFixed(1)} | ${(percentile(values, 50) / p50[`/ ${name}`]).toFixed(2)}× | ${(percentile(values, 50) / p50[`/api/v1/me ${name}`]).toFixed(2)}× |`,
        )
        .join("\n") +
      `\n\nThe last page answers are the same bytes (ports and signatures masked): ${mask(pages.before) === mask(pages.after)}\n`,
  );
} catch (error) {
  console.error(`bench-api-ab failed: ${error.stack ?? error.message}`);
  fail();
} finally {
  await stop();
}
