import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        remoteBindings: false,
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // A second shard (src/db/shards.ts): the service runs over two D1 databases in every test run.
          d1Databases: { DB: "social-publishing", DB_SHARD_1: "social-publishing-1" },
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
          },
        },
      }),
    ],
    test: {
      include: ["test/**/*.test.ts"],
      setupFiles: ["./test/apply-migrations.ts"],
      testTimeout: 20_000,
      // The worker's per-request log lines (src/http/request-log.ts) would drown the test output.
      onConsoleLog: (log: string) => !log.startsWith('{"method":'),
    },
  };
});
