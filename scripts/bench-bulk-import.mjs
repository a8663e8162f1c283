#!/usr/bin/env node
// `node scripts/bench-bulk-import.mjs`: the 1,000-row bulk import timed end to end against `wrangler dev`
// on a fresh local state (test/e2e/worker.mjs), offline. One user, one workspace, two accounts; the
// upload (1,000 rows, each a post to both accounts) is validated in one request, then committed: a
// commit creates at most 300 rows (COMMIT_CHUNK, src/imports/commit.ts), so the script sends commits
// until the import is `committed`. For each request: wall time, the D1 round trips its Server-Timing
// reports, and the CPU time the workerd process spent meanwhile (utime + stime from /proc; it includes
// local D1's SQLite work, which production runs on D1's side: an upper bound of the Worker's CPU).
// Linux only for the CPU figure (elsewhere "–"). Bounded in time; the worker is stopped either way.
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { seedTenant, startWorker } from "../test/e2e/worker.mjs";
import { benchRun } from "./lib.mjs";

const ROWS = 1000;
const { cleanup, fail, stop } = benchRun("bench:bulk-import", 10 * 60_000);

/** The pids of workerd processes whose parent is the wrangler serving `port`. */
function workerdPids(port) {
  try {
    const procs = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
    const read = (pid, file) => {
      try {
        return readFileSync(`/proc/${pid}/${file}`, "utf8");
      } catch {
        return "";
      }
    };
    const wranglers = new Set(
      procs.filter((pid) => {
        const args = read(pid, "cmdline").split("\0");
        return args.some((a) => a.includes("wrangler")) && args.includes(String(port));
      }),
    );
    const children = (parents) =>
      procs.filter((pid) => parents.has(read(pid, "stat").split(") ")[1]?.split(" ")[1] ?? ""));
    const level1 = new Set(children(wranglers));
    return [...level1, ...children(level1)].filter((pid) => read(pid, "comm").trim() === "workerd");
  } catch {
    return [];
  }
}

/** CPU seconds (user + system) the processes spent so far. */
function cpuSeconds(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return ticks / 100;
}

const dbTrips = (res) =>
  /db;dur=[\d.]+;desc="(\d+)"/.exec(res.headers.get("server-timing") ?? "")?.[1] ?? "–";

try {
  const base = await startWorker(cleanup);
  const port = new URL(base).port;
  const { workspace, accounts, key } = await seedTenant(base, {
    name: "Bench",
    email: "bench@example.test",
    abilities: ["posts"],
  });
  const pids = workerdPids(port);
  const timed = async (label, path, body) => {
    const cpu = cpuSeconds(pids);
    const started = performance.now();
    const res = await fetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(120_000),
    });
    const answer = await res.json();
    const ms = performance.now() - started;
    const spent = pids.length ? `${((cpuSeconds(pids) - cpu) * 1000).toFixed(0)} ms` : "–";
    console.info(
      `${label}: ${res.status} in ${ms.toFixed(0)} ms, workerd CPU ${spent}, D1 round trips ${dbTrips(res)}`,
    );
    if (res.status >= 300) throw new Error(JSON.stringify(answer).slice(0, 500));
    return answer;
  };
  const posts = Array.from({ length: ROWS }, (_, i) => ({
    accounts: accounts.map((a) => a.id),
    content: [{ text: `Bulk post ${i + 1}` }],
    scheduled_at: new Date(Date.now() + (i + 60) * 60_000).toISOString(),
  }));
  const imported = await timed(`validate ${ROWS} rows`, "/api/v1/imports", {
    workspace_id: workspace.id,
    posts,
  });
  if (imported.valid !== ROWS) throw new Error(`only ${imported.valid} rows valid`);
  let answer;
  let round = 0;
  const started = performance.now();
  do answer = await timed(`commit ${++round}`, `/api/v1/imports/${imported.id}/commit`);
  while (answer.status !== "committed");
  console.info(
    `committed ${answer.created.length} posts in ${round} commits, ${(performance.now() - started).toFixed(0)} ms`,
  );
  if (answer.created.length !== ROWS) throw new Error("not every row was created");
} catch (error) {
  console.error(error.message);
  fail();
} finally {
  await stop();
}
