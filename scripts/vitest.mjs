#!/usr/bin/env node
// `npm test`'s vitest step (docs/architecture.md, "Five projects"): the `system` project in a Vitest
// process of its own (one runtime, its files one at a time: Vitest runs a one-worker project only beside
// projects of its own group) started first, beside `unit`, `api` and `isolated` on two workers, then
// `production` in a run of its own. The system files mostly wait (queues, real delays), so the two share
// the machine well. The system run's output is printed when it ends (not interleaved); both JSON reports
// are merged into .wrangler/test-results.json, which scripts/test-summary.mjs reads. Exits non-zero if any
// run failed. Extra arguments go to every run (e.g. `--bail=1`). A run still going after
// VITEST_RUN_LIMIT_S seconds (600 by default; each takes under 4 minutes in CI) is killed with its
// runtimes and counts as failed: a stalled runtime fails the step instead of holding CI until its own limit.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const VITEST = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const REPORT = ".wrangler/test-results.json";
const SYSTEM_REPORT = ".wrangler/test-results-system.json";
const extra = process.argv.slice(2);
const LIMIT_MS = Number(process.env.VITEST_RUN_LIMIT_S || 600) * 1000;

// The runs have process groups of their own (below), so Ctrl-C or a TERM reaches them only through here.
const running = new Set();
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const child of running)
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    process.exit(130);
  });

/** One `vitest run`; resolves with its exit code and, when `capture`, its output. */
function vitest(args, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [VITEST, "run", ...args, ...extra], {
      cwd: ROOT,
      detached: true, // its own process group, so that a stalled run is killed with its workerd processes
      stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? "1" : "0") },
    });
    running.add(child);
    const chunks = [];
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    const limit = setTimeout(() => {
      process.stderr.write(
        `\nvitest run ${args.slice(0, 2).join(" ")} … still going after ${LIMIT_MS / 1000} s: killed\n`,
      );
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }, LIMIT_MS);
    child.on("error", (error) => resolve({ code: 1, output: String(error) }));
    child.on("exit", (code) => {
      clearTimeout(limit);
      running.delete(child);
      resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString() });
    });
  });
}

const json = (file) => ["--reporter=default", "--reporter=json", `--outputFile.json=${file}`];

mkdirSync(".wrangler", { recursive: true });
for (const file of [REPORT, SYSTEM_REPORT]) rmSync(file, { force: true });

const system = vitest(["--project", "system", ...json(SYSTEM_REPORT)], true);
const main = await vitest([
  "--project",
  "unit",
  "--project",
  "api",
  "--project",
  "isolated",
  ...json(REPORT),
]);
const production = await vitest(["--project", "production"]);
const { code: systemCode, output } = await system;
process.stdout.write(`\n── the system project (its own Vitest process, run beside the others) ──\n${output}`);

// One report for the summary: the counts added up, the files of both.
if (existsSync(REPORT) && existsSync(SYSTEM_REPORT)) {
  const a = JSON.parse(readFileSync(REPORT, "utf8"));
  const b = JSON.parse(readFileSync(SYSTEM_REPORT, "utf8"));
  for (const [key, value] of Object.entries(b))
    if (typeof value === "number" && key !== "startTime") a[key] += value;
  a.success = a.success && b.success;
  a.testResults.push(...b.testResults);
  writeFileSync(REPORT, JSON.stringify(a));
} else rmSync(REPORT, { force: true }); // a run without its report: the summary reports the failure

process.exit(main.code || production.code || systemCode ? 1 : 0);
