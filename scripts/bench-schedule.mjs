#!/usr/bin/env node
// `npm run bench:schedule`: how late scheduled posts reach the platform under plain `wrangler dev`,
// where the cron never fires and only the wake-ups (delayed queue messages) publish. It starts the
// worker on a fresh local state, offline, with the sandbox platform (test/e2e/worker.mjs), creates a
// user, workspace, sandbox account and API key through the operator API, and runs two rounds:
//   spread: 24 posts scheduled a few seconds ahead, 250 ms apart (over 6 seconds);
//   burst:  40 posts scheduled for the same instant (a second user: the API allows 60 calls a minute).
// Each post's publication time is read from the sandbox account's list (`published_at`, stamped when
// the platform call arrives) and compared with its `scheduled_at`: the delay is printed as minimum,
// median, 95th percentile and worst. Bounded in time; the worker is stopped either way.
import { adminCall, startWorker } from "../test/e2e/worker.mjs";
import { benchRun } from "./lib.mjs";

const RUN_DEADLINE_MS = 5 * 60_000;
const LEAD_MS = 6000; // time to create every post before the first is due
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const { cleanup, fail, stop } = benchRun("bench:schedule", RUN_DEADLINE_MS);

async function tenant(base, name) {
  const user = await adminCall(base, "POST", "/users", { name, email: `${name}-${Date.now()}@bench.test` });
  const workspace = await adminCall(base, "POST", "/workspaces", {
    user_id: user.id,
    name: `${name} workspace`,
  });
  const handle = `${name}_${Date.now().toString(36)}`;
  const account = await adminCall(base, "POST", "/accounts", {
    workspace_id: workspace.id,
    platform: "twitter",
    username: handle,
    name: "Bench account",
  });
  const { key } = await adminCall(base, "POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
  return { workspace, account, handle, key };
}

async function schedule(base, t, text, at) {
  const res = await fetch(`${base}/api/v1/posts`, {
    method: "POST",
    headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" },
    body: JSON.stringify({
      workspace_id: t.workspace.id,
      accounts: [t.account.id],
      content: [{ text }],
      scheduled_at: new Date(at).toISOString(),
    }),
    signal: AbortSignal.timeout(30_000),
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
}

async function publications(base, handle) {
  const res = await fetch(`${base}/sandbox/twitter/accounts/${encodeURIComponent(handle)}/posts`, {
    signal: AbortSignal.timeout(30_000),
  });
  return (await res.json()).data;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function round(base, label, t, dueTimes) {
  const texts = dueTimes.map((_, i) => `${label} post ${i + 1}`);
  for (const [i, at] of dueTimes.entries()) await schedule(base, t, texts[i], at);
  if (Date.now() >= Math.min(...dueTimes)) throw new Error(`${label}: posts were created too slowly`);
  const waitUntil = Math.max(...dueTimes) + 20_000;
  let published = [];
  while (Date.now() < waitUntil) {
    published = await publications(base, t.handle);
    if (published.length >= dueTimes.length) break;
    await sleep(250);
  }
  const dueByText = new Map(texts.map((text, i) => [text, dueTimes[i]]));
  const delays = published
    .map((p) => Date.parse(p.published_at) - dueByText.get(p.text[0]))
    .sort((a, b) => a - b);
  const counts = new Map();
  for (const p of published) counts.set(p.text[0], (counts.get(p.text[0]) ?? 0) + 1);
  const twice = [...counts.values()].filter((n) => n > 1).length;
  const missing = texts.filter((text) => !counts.has(text)).length;
  const ms = (n) => `${n} ms`;
  process.stdout.write(
    [
      `${label}: ${dueTimes.length} posts, ${published.length} publications (${missing} missing, ${twice} published twice)`,
      `  delay after scheduled_at: min ${ms(delays[0])}, median ${ms(percentile(delays, 50))}, p95 ${ms(percentile(delays, 95))}, worst ${ms(delays.at(-1))}`,
      "",
    ].join("\n"),
  );
  if (missing) {
    // Say where the missing ones stand, from the API's side.
    const res = await fetch(`${base}/api/v1/posts?per_page=100`, {
      headers: { authorization: `Bearer ${t.key}` },
      signal: AbortSignal.timeout(30_000),
    });
    const statuses = {};
    for (const post of (await res.json()).data ?? [])
      statuses[post.status] = (statuses[post.status] ?? 0) + 1;
    process.stdout.write(`  posts by status: ${JSON.stringify(statuses)}\n`);
  }
  if (missing || twice || delays[0] < 0 || delays.at(-1) > 5000) fail();
}

try {
  const base = await startWorker(cleanup);
  process.stdout.write(`wrangler dev on ${base} (fresh state, sandbox, no cron)\n`);
  const spreadStart = Date.now() + LEAD_MS;
  await round(
    base,
    "spread",
    await tenant(base, "spread"),
    Array.from({ length: 24 }, (_, i) => spreadStart + i * 250),
  );
  const burstAt = Math.ceil((Date.now() + LEAD_MS + 2000) / 1000) * 1000;
  await round(
    base,
    "burst",
    await tenant(base, "burst"),
    Array.from({ length: 40 }, () => burstAt),
  );
} catch (error) {
  console.error(`bench:schedule failed: ${error.stack ?? error.message}`);
  fail();
} finally {
  await stop();
}
