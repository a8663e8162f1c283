#!/usr/bin/env node
// `npm test`'s vitest step (docs/architecture.md, "Five projects"): two Vitest processes side by side.
// One runs `unit`, `api` and `production` on two workers; the other `isolated` (fresh runtimes, one per
// file) then `system` (one runtime, its files one at a time: Vitest runs a one-worker project only beside
// projects of its own group). The system files mostly wait (queues, real delays), so the two share the
// machine well; `production` sits in the first so that `system` starts sooner (side by side: 0.88x the
// step's wall time with it there). The second run's output is printed when it ends (not interleaved). Extra arguments go to every run (e.g.
// `--bail=1`). Exits non-zero if any run failed.
//
// Every run reports its progress as it goes (scripts/vitest-progress.mjs, a line per finished test). A run
// in which no test has finished for VITEST_STALL_S seconds (150 by default; no test may take more than 60)
// has stalled: a shared runtime can stop answering with no error (cloudflare/workers-sdk#15498, seen here
// in CI). It is killed with its runtimes, the files it was in are named, and the files it had not finished
// run once more in a fresh Vitest run; what the first finished stands. A run whose files have all finished
// but which has not exited VITEST_EXIT_GRACE_S seconds later (3: a normal end takes ~0.1 s; at times the
// Workers pool never ends a run after its last file, from an empty module cache as in CI) is killed too,
// and counts as its files' results say. A run still going after
// VITEST_RUN_LIMIT_S seconds (600) is killed and fails. The counts of every file, as the last run of it
// left them, go to .wrangler/test-results.json, which scripts/test-summary.mjs reads.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const VITEST = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url));
const REPORTER = fileURLToPath(new URL("./vitest-progress.mjs", import.meta.url));
const REPORT = ".wrangler/test-results.json";
const PROGRESS = ".wrangler/vitest";
const extra = process.argv.slice(2);
const LIMIT_MS = Number(process.env.VITEST_RUN_LIMIT_S || 600) * 1000;
const STALL_MS = Number(process.env.VITEST_STALL_S || 150) * 1000;
const EXIT_GRACE_MS = Number(process.env.VITEST_EXIT_GRACE_S || 3) * 1000;

// The runs have process groups of their own (below), so Ctrl-C or a TERM reaches them only through here.
const running = new Set();
const kill = (child) => {
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
};
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    for (const child of running) kill(child);
    process.exit(130);
  });

/** The records a run's reporter has written so far. */
const records = (file) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];

/** What records say: the files queued, each finished file's last record, the run's end if reported. */
function progressOf(lines) {
  const queued = lines.find((r) => r.event === "queued")?.files;
  const ended = new Map(lines.flatMap((r) => (r.event === "end" ? [[r.file, r]] : [])));
  const failed = [...ended.values()].some((r) => r.failed > 0);
  return { queued, ended, failed, done: lines.find((r) => r.event === "done") };
}

/**
 * One `vitest run` of `projects` (and only `files` when given), its progress appended to `progress`.
 * Resolves with its exit code, its output when `capture`, and whether it stalled.
 */
function vitestOnce(projects, files, progress, capture) {
  return new Promise((resolve) => {
    const args = [
      ...projects.flatMap((name) => ["--project", name]),
      "--reporter=default",
      `--reporter=${REPORTER}`,
    ];
    const child = spawn(process.execPath, [VITEST, "run", ...args, ...extra, ...files], {
      cwd: ROOT,
      detached: true, // its own process group, so that a stalled run is killed with its workerd processes
      stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: {
        ...process.env,
        VITEST_PROGRESS: progress,
        // A stopped run is asked for Node's diagnostic report first (its handles and stack), for the record.
        NODE_OPTIONS:
          `${process.env.NODE_OPTIONS ?? ""} --report-on-signal --report-signal=SIGUSR2 --report-directory=${PROGRESS}`.trim(),
        FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? "1" : "0"),
      },
    });
    running.add(child);
    const chunks = [];
    child.stdout?.on("data", (chunk) => chunks.push(chunk));
    child.stderr?.on("data", (chunk) => chunks.push(chunk));
    const started = Date.now();
    const before = records(progress).length; // an earlier attempt's lines, in the same file
    let stalled = false;
    let hung = false;
    let finishedAt;
    const say = (text) => process.stderr.write(`\nvitest run of ${projects.join(", ")}: ${text}\n`);
    let killed = false;
    const stop = (text) => {
      say(`${text}; killed (Node's report of it in ${PROGRESS}/)`);
      killed = true;
      try {
        process.kill(child.pid, "SIGUSR2");
      } catch {}
      setTimeout(() => kill(child), 2_000);
    };
    const watch = setInterval(() => {
      if (killed) return;
      const now = Date.now();
      if (now - started > LIMIT_MS) return stop(`still going after ${LIMIT_MS / 1000} s`);
      const mine = records(progress).slice(before);
      const { queued, ended, done } = progressOf(mine);
      // Every file finished (or the run's end reported) and the process still there: the Workers pool at
      // times never ends the run (docs/architecture.md, "Five projects"). Its results are all in.
      if (done || queued?.every((file) => ended.has(file))) {
        finishedAt ??= now;
        if (now - finishedAt < EXIT_GRACE_MS) return;
        hung = true;
        return stop(`every file finished, but Vitest did not exit within ${EXIT_GRACE_MS / 1000} s`);
      }
      const moved = existsSync(progress) ? Math.max(statSync(progress).mtimeMs, started) : started;
      if (now - moved < STALL_MS) return;
      stalled = true;
      const inside = new Set(
        mine.flatMap((r) => (r.event === "start" && !ended.has(r.file) ? [r.file] : [])),
      );
      stop(`no test finished for ${STALL_MS / 1000} s: stalled in ${[...inside].join(", ") || "no file"}`);
    }, 2_000);
    child.on("error", (error) => resolve({ code: 1, output: String(error), stalled }));
    child.on("exit", (code) => {
      clearInterval(watch);
      running.delete(child);
      // A run killed after finishing passed if its files did (and its end, when reported, says so).
      const { failed, done } = progressOf(records(progress).slice(before));
      const passed = !failed && (!done || (done.reason === "passed" && done.unhandledErrors === 0));
      const status = hung ? (passed ? 0 : 1) : (code ?? 1);
      resolve({ code: status, output: Buffer.concat(chunks).toString(), stalled });
    });
  });
}

/** A run of `projects`; once stalled, the files it had not finished run once more. */
async function vitest(name, projects, capture = false) {
  const progress = `${PROGRESS}/${name}.jsonl`;
  const first = await vitestOnce(projects, [], progress, capture);
  if (!first.stalled) return first;
  const { queued, ended, failed: failedBefore } = progressOf(records(progress));
  // Stalled before it queued its files: all of it again.
  const rest = queued ? queued.filter((file) => !ended.has(file)) : [];
  process.stderr.write(
    queued
      ? `running again the ${rest.length} of ${queued.length} files it had not finished\n`
      : "running it again\n",
  );
  const second =
    queued && !rest.length ? { code: 0, output: "" } : await vitestOnce(projects, rest, progress, capture);
  return {
    code: second.code || second.stalled || failedBefore ? 1 : 0,
    output: `${first.output}\n── running again the files it had not finished ──\n${second.output}`,
  };
}

mkdirSync(PROGRESS, { recursive: true });
rmSync(REPORT, { force: true });
for (const name of ["system", "main"]) rmSync(`${PROGRESS}/${name}.jsonl`, { force: true });

const system = vitest("system", ["isolated", "system"], true);
const main = await vitest("main", ["unit", "api", "production"]);
const { code: systemCode, output } = await system;
process.stdout.write(
  `\n── isolated and system (their own Vitest process, run beside the others) ──\n${output}`,
);

// One report for the summary, from every file's last run; a file queued and never finished is a failure.
// A run that never queued its files (Vitest did not start) leaves no report: the summary says so.
const runs = ["system", "main"].map((name) => records(`${PROGRESS}/${name}.jsonl`));
if (runs.every((run) => run.some((r) => r.event === "queued"))) {
  const report = {
    numPassedTests: 0,
    numFailedTests: 0,
    numPendingTests: 0,
    numTodoTests: 0,
    testResults: [],
  };
  for (const run of runs) {
    const last = progressOf(run).ended;
    for (const file of new Set(run.flatMap((r) => (r.event === "queued" ? r.files : []))))
      report.testResults.push(
        last.get(file) ?? { file, state: "unfinished", passed: 0, failed: 1, skipped: 0, todo: 0 },
      );
  }
  for (const r of report.testResults) {
    report.numPassedTests += r.passed;
    report.numFailedTests += r.failed;
    report.numPendingTests += r.skipped;
    report.numTodoTests += r.todo;
  }
  report.success = !(main.code || systemCode);
  writeFileSync(REPORT, JSON.stringify(report));
}

process.exit(main.code || systemCode ? 1 : 0);
