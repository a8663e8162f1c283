#!/usr/bin/env node
// `npm run bench:import`: imports generated 20 MB and 200 MB videos through the media-import queue of
// a `wrangler dev` worker and reports the time and the peak resident memory (VmRSS, sampled from
// /proc/<pid>/status every 20 ms) of the workerd process that runs the worker. Linux only.
//
// Local R2 is simulated inside that same workerd process, and the simulator's own memory grows with
// what it writes. So that the figures say what the importer costs, every scenario runs in a fresh
// `wrangler dev`, and a control scenario writes the same bytes into local R2 with a one-line worker
// (`MEDIA.put(key, (await fetch(src)).body)`) and no importer at all.
//
// Everything is local: a Node origin on 127.0.0.1 generates the bodies on the fly (never held), and
// the worker runs from a bench-only copy of wrangler.toml in .wrangler/bench/ whose
// IMPORT_ALLOWED_PRIVATE_HOSTS lists that origin's host:port (the importer's guard refuses 127.0.0.1
// otherwise), without the cron trigger, with its own state directory and vars, so `npm run dev` data
// and .dev.vars are left alone; the directory is removed at the end. The compatibility flags stay
// production's: under `wrangler dev` (local mode, checked with wrangler 4.156)
// `global_fetch_strictly_public` does not refuse 127.0.0.1, so nothing needs switching off. Bounded in
// time: every wait has a deadline, the whole run another, and the script stops wrangler and the
// origin either way.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";

const MB = 1024 * 1024;
const SCENARIOS = [
  { label: "import, 20 MB", kind: "import", bytes: 20 * MB, chunked: false },
  { label: "import, 200 MB", kind: "import", bytes: 200 * MB, chunked: false },
  { label: "import, 20 MB, chunked", kind: "import", bytes: 20 * MB, chunked: true },
  { label: "import, 200 MB, chunked", kind: "import", bytes: 200 * MB, chunked: true },
  { label: "control: R2 put, 20 MB", kind: "control", bytes: 20 * MB, chunked: false },
  { label: "control: R2 put, 200 MB", kind: "control", bytes: 200 * MB, chunked: false },
];
const STEP_DEADLINE_MS = 180_000;
const RUN_DEADLINE_MS = 20 * 60_000;
const ADMIN_TOKEN = "bench-admin-token";
const BENCH_DIR = resolve(".wrangler/bench");
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CI: "true",
};

if (process.platform !== "linux") {
  console.error("bench:import reads /proc to measure memory; run it on Linux.");
  process.exit(1);
}

let current = null; // the running `wrangler dev`
const stopAll = setTimeout(() => fail(new Error("the benchmark ran out of time")), RUN_DEADLINE_MS);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => fail(new Error(`stopped by ${signal}`)));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const mb = (bytes) => (bytes / MB).toFixed(1);

// ---- the origin: an MP4 signature, then filler, written with backpressure -------------------------
const CHUNK = Buffer.alloc(64 * 1024);
for (let i = 0; i < CHUNK.length; i++) CHUNK[i] = (i * 31 + 7) & 0xff;
const HEAD = Buffer.from([0, 0, 0, 0x18, ...Buffer.from("ftypisom"), 0, 0, 2, 0, ...Buffer.from("isomiso2")]);
HEAD.copy(CHUNK);

const origin = createServer((req, res) => {
  const match = /^\/video-(\d+)(-chunked)?\.mp4$/.exec(req.url ?? "");
  if (!match) return res.writeHead(404).end();
  const total = Number(match[1]);
  res.writeHead(200, {
    "content-type": "video/mp4",
    ...(match[2] ? {} : { "content-length": String(total) }),
  });
  let sent = 0;
  const pump = () => {
    while (sent < total) {
      const size = Math.min(CHUNK.length, total - sent);
      sent += size;
      if (!res.write(CHUNK.subarray(0, size))) return res.once("drain", pump);
    }
    res.end();
  };
  pump();
});
await new Promise((done) => origin.listen(0, "127.0.0.1", done));
const originPort = origin.address().port;
const sourceUrl = (bytes, chunked) =>
  `http://127.0.0.1:${originPort}/video-${bytes}${chunked ? "-chunked" : ""}.mp4`;

// ---- bench-only configs -------------------------------------------------------------------------
rmSync(BENCH_DIR, { recursive: true, force: true });
mkdirSync(join(BENCH_DIR, "control"), { recursive: true });
const projectConfig = readFileSync("wrangler.toml", "utf8");
writeFileSync(
  join(BENCH_DIR, "wrangler.toml"),
  projectConfig
    .replace(/^main = .*$/m, `main = ${JSON.stringify(resolve("src/index.ts"))}`)
    .replace(/^migrations_dir = .*$/m, `migrations_dir = ${JSON.stringify(resolve("migrations"))}`)
    .replace(
      /^IMPORT_ALLOWED_PRIVATE_HOSTS = .*$/m,
      `IMPORT_ALLOWED_PRIVATE_HOSTS = "127.0.0.1:${originPort}"`,
    )
    .replace(/^\[triggers\][\s\S]*?(?=^\[)/m, ""),
);
writeFileSync(
  join(BENCH_DIR, ".dev.vars"),
  `ENCRYPTION_KEY="YmVuY2gtb25seS1lbmNyeXB0aW9uLWtleS0zMi1ieXQ="\nADMIN_TOKEN="${ADMIN_TOKEN}"\n`,
);
const compatibility = /^compatibility_(?:date|flags) = .*$/gm;
writeFileSync(
  join(BENCH_DIR, "control", "wrangler.toml"),
  [
    'name = "bench-control"',
    'main = "index.js"',
    ...projectConfig.match(compatibility),
    "[[r2_buckets]]",
    'binding = "MEDIA"',
    'bucket_name = "social-publishing-media"',
    "",
  ].join("\n"),
);
writeFileSync(
  join(BENCH_DIR, "control", "index.js"),
  `export default {
  async fetch(request, env) {
    const src = new URL(request.url).searchParams.get("src");
    if (!src) return new Response("up");
    const object = await env.MEDIA.put("control/" + crypto.randomUUID(), (await fetch(src)).body);
    return Response.json({ size: object.size });
  },
};
`,
);

// ---- processes and memory -----------------------------------------------------------------------
function descendants(root) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const found = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift();
    for (const [child, parent] of parents) if (parent === pid) queue.push(child) && found.push(child);
  }
  return found;
}

const commandLine = (pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");

/**
 * `wrangler dev` runs two workerd processes: a proxy on the dev port, and the runtime of the worker
 * itself (with the bindings' simulators), the one started with an inspector address.
 */
function runtimePid(root) {
  const workerds = descendants(root).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "workerd";
    } catch {
      return false;
    }
  });
  return workerds.find((pid) => commandLine(pid).includes("--inspector-addr")) ?? null;
}

const rss = (pid) =>
  Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

async function startWorker(configPath, persistTo) {
  const args = ["-c", configPath, "--persist-to", persistTo];
  if (configPath.endsWith(join("bench", "wrangler.toml"))) {
    const migrate = spawnSync("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...args], {
      env,
      encoding: "utf8",
    });
    if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}${migrate.stderr}`);
  }
  const port = 18_700 + Math.floor(Math.random() * 500);
  const child = spawn(
    "wrangler",
    [
      "dev",
      ...args,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(port + 1000),
      "--log-level",
      "warn",
      "--show-interactive-dev-session=false",
    ],
    { env, stdio: ["ignore", "pipe", "pipe"], detached: true },
  );
  const worker = { child, base: `http://127.0.0.1:${port}`, log: "", pid: null };
  child.stdout.on("data", (d) => (worker.log += d));
  child.stderr.on("data", (d) => (worker.log += d));
  current = worker;
  for (const deadline = Date.now() + 120_000; ; await sleep(300)) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${worker.log.slice(-3000)}`);
    if (Date.now() > deadline) throw new Error("the worker did not start");
    try {
      if ((await fetch(worker.base)).ok) break;
    } catch {}
  }
  worker.pid = runtimePid(child.pid);
  if (!worker.pid) throw new Error("no workerd runtime process under wrangler dev");
  return worker;
}

async function stopWorker(worker) {
  if (!worker) return;
  try {
    process.kill(-worker.child.pid, "SIGTERM");
  } catch {}
  for (const deadline = Date.now() + 10_000; worker.child.exitCode === null && Date.now() < deadline; ) {
    await sleep(100);
  }
  if (current === worker) current = null;
}

function fail(error) {
  console.error(`bench:import failed: ${error.message}`);
  if (current?.log) console.error(current.log.slice(-4000));
  if (current) {
    try {
      process.kill(-current.child.pid, "SIGKILL");
    } catch {}
  }
  origin.closeAllConnections();
  origin.close();
  setTimeout(() => {
    rmSync(BENCH_DIR, { recursive: true, force: true });
    process.exit(1);
  }, 1000);
}

/** Runs `work` while sampling the runtime's RSS; returns the idle RSS before, the peak, the time. */
async function measure(pid, work) {
  const idle = rss(pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss(pid));
  }, 20);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return { seconds: (performance.now() - started) / 1000, idle, peak: Math.max(peak, rss(pid)) };
}

// ---- the scenarios ------------------------------------------------------------------------------
async function api(base, method, path, key, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status}: ${text}`);
  return JSON.parse(text);
}

async function importAndWait(worker, key, workspaceId, bytes, chunked) {
  const answer = await api(worker.base, "POST", "/api/v1/media/upload/url", key, {
    workspace_id: workspaceId,
    urls: [sourceUrl(bytes, chunked)],
  });
  if (answer.count_stored !== 1) throw new Error(`the import was refused: ${JSON.stringify(answer)}`);
  const link = answer.media[0].url.replace(/^https?:\/\/[^/]+/, worker.base);
  // The signed link answers 409 while the item is processing (HEAD: no body; no key, no rate limit).
  for (const deadline = Date.now() + STEP_DEADLINE_MS; ; await sleep(250)) {
    const head = await fetch(link, { method: "HEAD" });
    if (head.status === 200) {
      const size = Number(head.headers.get("content-length"));
      if (size !== bytes) throw new Error(`stored ${size} bytes, expected ${bytes}`);
      return;
    }
    if (head.status !== 409) throw new Error(`the import failed (its link answered ${head.status})`);
    if (Date.now() > deadline) throw new Error("the import did not finish in time");
  }
}

async function runImport(scenario) {
  const worker = await startWorker(join(BENCH_DIR, "wrangler.toml"), join(BENCH_DIR, "state"));
  try {
    const admin = (method, path, body) => api(worker.base, method, `/admin/v1${path}`, ADMIN_TOKEN, body);
    const stamp = `${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
    const user = await admin("POST", "/users", { name: "Bench", email: `bench-${stamp}@example.test` });
    const workspace = await admin("POST", "/workspaces", { user_id: user.id, name: `Bench ${stamp}` });
    const { key } = await admin("POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
    // A small import first, so start-up work (compiling, first queue delivery) is not counted.
    await importAndWait(worker, key, workspace.id, 1 * MB, scenario.chunked);
    await sleep(500);
    return await measure(worker.pid, () =>
      importAndWait(worker, key, workspace.id, scenario.bytes, scenario.chunked),
    );
  } finally {
    await stopWorker(worker);
  }
}

async function runControl(scenario) {
  const worker = await startWorker(
    join(BENCH_DIR, "control", "wrangler.toml"),
    join(BENCH_DIR, "control-state"),
  );
  const put = async (bytes) => {
    const response = await fetch(`${worker.base}/?src=${encodeURIComponent(sourceUrl(bytes, false))}`);
    const { size } = await response.json();
    if (size !== bytes) throw new Error(`the control stored ${size} bytes, expected ${bytes}`);
  };
  try {
    await put(1 * MB);
    await sleep(500);
    return await measure(worker.pid, () => put(scenario.bytes));
  } finally {
    await stopWorker(worker);
  }
}

try {
  const rows = [];
  process.stdout.write(
    `  ${"scenario (fresh wrangler dev each)".padEnd(36)} ${"time".padStart(7)}  ${"idle RSS".padStart(9)}  ${"peak RSS".padStart(9)}  ${"growth".padStart(8)}\n`,
  );
  for (const scenario of SCENARIOS) {
    const result = await (scenario.kind === "import" ? runImport(scenario) : runControl(scenario));
    rows.push({ ...scenario, ...result });
    process.stdout.write(
      `  ${scenario.label.padEnd(36)} ${`${result.seconds.toFixed(1)} s`.padStart(7)}  ` +
        `${`${mb(result.idle)} MB`.padStart(9)}  ${`${mb(result.peak)} MB`.padStart(9)}  ` +
        `${`+${mb(result.peak - result.idle)} MB`.padStart(8)}\n`,
    );
  }
  const growth = (label) => {
    const row = rows.find((r) => r.label === label);
    return row.peak - row.idle;
  };
  process.stdout.write(
    `  import growth minus control growth: 20 MB ${mb(growth("import, 20 MB") - growth("control: R2 put, 20 MB"))} MB, ` +
      `200 MB ${mb(growth("import, 200 MB") - growth("control: R2 put, 200 MB"))} MB\n`,
  );
  clearTimeout(stopAll);
  origin.closeAllConnections();
  origin.close();
  // The imported objects (hundreds of MB of local R2) are of no further use.
  rmSync(BENCH_DIR, { recursive: true, force: true });
  process.exit(0);
} catch (error) {
  fail(error);
}
