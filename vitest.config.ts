import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { unstable_getMiniflareWorkerOptions } from "wrangler";

// Five projects (docs/architecture.md, "Testing"), told apart by the file name:
//   unit    `*.unit.test.ts`: pure rules, in Node, no workerd;
//   api     `*.test.ts`: in workerd, every file in one shared runtime (`isolate: false`): each test makes
//           its own tenant, so files do not see each other;
//   system  `*.system.test.ts`: in workerd, one runtime of their own, apart from the API's, one file at a
//           time: the real queues' background work, the emulators, time moved by a faked `Date`; each file
//           makes its own tenants and asserts on what is theirs, whatever another file left running;
//   isolated `*.isolated.test.ts`: in workerd, a fresh runtime per file: what looks at the whole database
//           (the cron's sweeps and their limits) or replaces what the runtime shares;
//   production `*.production.test.ts`: in workerd, a runtime per file configured like a deployment
//           (SANDBOX off, platform apps set): what test mode must do there.
// The plugin (1.4) has no option of its own for isolation: it starts one Miniflare per Vitest worker, and
// Vitest's `isolate` decides whether a worker (so a runtime, its D1, R2, Durable Objects and queues) is
// reused for the next file or started afresh. A runtime costs its start: the worker's ~500 modules sent
// to it and evaluated (about 4 s of CPU each), which is why only what must be alone is.
const UNIT = "test/**/*.unit.test.ts";
const SYSTEM = "test/**/*.system.test.ts";
const ISOLATED = "test/**/*.isolated.test.ts";
// A deployment's settings (SANDBOX off, real platform apps configured): test mode must still reach only
// the emulators (ARCHITECTURE "Test mode"). `npm test` runs it in the `unit`/`api` Vitest process
// (scripts/vitest.mjs), which also ends a run that does not exit after its last file.
const PRODUCTION = "test/**/*.production.test.ts";

/** The bare imports of src/ and test/ that run in workerd. */
const PREBUNDLED = [
  "zod",
  "drizzle-orm",
  "drizzle-orm/sqlite-core",
  "drizzle-orm/d1",
  "hono",
  "hono/jsx",
  "hono/jsx/jsx-runtime",
  "hono/jsx/jsx-dev-runtime",
  "hono/factory",
  "hono/cookie",
  "hono/utils/http-status",
  "hono/http-exception",
  "hono/route",
  "hono/combine",
  "@hono/zod-openapi",
  "@hono/mcp",
  "@modelcontextprotocol/sdk/types.js",
  "@modelcontextprotocol/sdk/server/index.js",
  "@modelcontextprotocol/sdk/client/index.js",
  "@modelcontextprotocol/sdk/client/streamableHttp.js",
  "@simplewebauthn/server",
  "@simplewebauthn/server/helpers",
  "twitter-text",
  "papaparse",
  "standardwebhooks",
];

/**
 * Swagger UI's bundle is imported as text (wrangler.toml's rules), which the plugin does for a module it is
 * asked for without a query; with the optimizer on, Vite would ask for it with its `?v=` and evaluate
 * 1.7 MB of script instead. Resolved as external, it is asked for by its path and read as text.
 */
const textAssets: Plugin = {
  name: "text-assets-stay-text",
  enforce: "pre",
  resolveId(id) {
    if (id.startsWith("swagger-ui-dist/"))
      return { id: path.join(import.meta.dirname, "node_modules", id), external: true };
  },
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The queues' consumers as wrangler.toml sets them, but handed each batch at once instead of after
  // up to max_batch_timeout (1 s): a test waiting on a consumer waits for its work, not for the window.
  const { workerOptions } = unstable_getMiniflareWorkerOptions("./wrangler.toml");
  const queueConsumers = Object.fromEntries(
    Object.entries(workerOptions.queueConsumers ?? {}).map(([queue, consumer]) => [
      queue,
      { ...consumer, maxBatchTimeout: 0 },
    ]),
  );

  /** The worker under test and its bindings, for a workerd project (one plugin instance each). */
  const workerd = (overrides: Record<string, string> = {}) =>
    cloudflareTest({
      remoteBindings: false,
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // A second shard (src/db/shards.ts): the service runs over two D1 databases in every test run.
        d1Databases: { DB: "social-publishing", DB_SHARD_1: "social-publishing-1" },
        queueConsumers,
        bindings: {
          TEST_MIGRATIONS: migrations,
          ENCRYPTION_KEY: "dGVzdC1vbmx5LWVuY3J5cHRpb24ta2V5LTMyLWJ5dGU=",
          ADMIN_TOKEN: "test-admin-token",
          SANDBOX: "true",
          // Background work (queue consumers, the cron) builds URLs on the tests' origin.
          PUBLIC_BASE_URL: "https://api.example.test",
          // Tests answer DNS-over-HTTPS themselves (test/media/support.ts); anything they do not catch
          // is refused on loopback at once instead of going to the network.
          IMPORT_DNS_RESOLVER: "http://127.0.0.1:9/dns-query",
          ...overrides,
        },
      },
    });

  const workerdTest = {
    setupFiles: ["./test/apply-migrations.ts", "./test/reset-between-files.ts"],
    testTimeout: 20_000,
    // The dependencies pre-bundled (node_modules/.vite): a runtime is sent a few dozen modules instead of
    // ~800 files of zod, drizzle, hono, SimpleWebAuthn and twitter-text. Every entry the worker or a
    // test imports is listed, or its files would be sent one by one beside the bundle.
    deps: { optimizer: { ssr: { enabled: true, include: PREBUNDLED } } },
  };

  return {
    test: {
      // The projects of group 0 run at once on two workers (api's two shared runtimes, isolated's and
      // production's fresh ones, unit's); system's one runtime is group 1, after them, unless run in a process of its own
      // (`npm run test:vitest`, scripts/vitest.mjs).
      maxWorkers: 2,
      // The worker's per-request log lines (src/http/request-log.ts) would drown the test output (a
      // reporter option: it works here, not in a project).
      onConsoleLog: (log: string) => !log.startsWith('{"method":'),
      projects: [
        {
          test: {
            name: "unit",
            include: [UNIT],
            environment: "node",
            // One module graph per worker instead of one per file: 3 s instead of 10 for its ~50 files,
            // which run last in their process. What a file stubs is undone after it, as in workerd.
            isolate: false,
            setupFiles: ["./test/reset-between-files.ts"],
          },
        },
        {
          plugins: [textAssets, workerd()],
          test: {
            name: "api",
            include: ["test/**/*.test.ts"],
            exclude: [UNIT, SYSTEM, ISOLATED, PRODUCTION],
            isolate: false,
            ...workerdTest,
          },
        },
        {
          plugins: [
            textAssets,
            workerd({
              SANDBOX: "false",
              TWITTER_CLIENT_ID: "production-twitter-client",
              TWITTER_CLIENT_SECRET: "production-twitter-secret",
              LINKEDIN_CLIENT_ID: "production-linkedin-client",
              LINKEDIN_CLIENT_SECRET: "production-linkedin-secret",
            }),
          ],
          test: {
            name: "production",
            include: [PRODUCTION],
            ...workerdTest,
          },
        },
        {
          plugins: [textAssets, workerd()],
          test: {
            name: "system",
            include: [SYSTEM],
            isolate: false,
            // One runtime, one file at a time (with two, runs stalled part-way with both runtimes idle), in
            // a group of its own: Vitest runs a one-worker project only beside projects of its own group.
            // `npm test` runs it in a second Vitest process beside the others (scripts/vitest.mjs).
            fileParallelism: false,
            sequence: { groupOrder: 1 },
            ...workerdTest,
          },
        },
        {
          plugins: [textAssets, workerd()],
          test: {
            name: "isolated",
            include: [ISOLATED],
            ...workerdTest,
          },
        },
      ],
    },
  };
});
