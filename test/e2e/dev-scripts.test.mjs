// The local scripts a newcomer runs, in plain Node with stand-ins (no worker): the operator CLI (`npm
// run admin`) finds the server where `npm run dev` put it (`PORT`, unless --url or ADMIN_URL says
// otherwise), and `npm run dev` applies the migrations quietly, showing wrangler's output only when they
// fail.
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

/**
 * Runs scripts/dev.mjs in a scratch folder with a stand-in `wrangler` whose `d1 migrations apply` prints
 * 640 lines of tables and exits with `migrationStatus`, and whose `dev` exits at once.
 */
function devWithStandIn(migrationStatus) {
  const dir = mkdtempSync(join(tmpdir(), "dev-script-"));
  try {
    copyFileSync(".dev.vars.example", join(dir, ".dev.vars.example"));
    const table = Array.from({ length: 640 }, (_, i) => `│ 00${i}_migration.sql │ ✅ │`).join("\n");
    writeFileSync(
      join(dir, "wrangler"),
      `#!/bin/sh\ncase "$1 $2" in "d1 migrations") printf '%s\\n' "${table}"; exit ${migrationStatus};; esac\nexit 3\n`,
    );
    chmodSync(join(dir, "wrangler"), 0o755);
    return spawnSync(process.execPath, [resolve("scripts/dev.mjs")], {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: `${dir}:/usr/bin:/bin`, PORT: "8797" },
      timeout: 30_000,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs the CLI with `env`; answers its exit code and output. */
const admin = (args, env) =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      ["scripts/admin.mjs", ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });

describe("npm run dev", () => {
  it("applies the migrations without printing their tables", () => {
    const result = devWithStandIn(0);
    assert.doesNotMatch(result.stdout, /_migration\.sql/);
    assert.match(result.stdout, /applying local D1 migrations… done/);
    assert.ok(result.stdout.split("\n").length < 10, result.stdout);
  });

  it("shows wrangler's output when the migrations fail, and stops", () => {
    const result = devWithStandIn(1);
    assert.equal(result.status, 1);
    assert.match(result.stdout, /failed:/);
    assert.match(result.stdout, /0639_migration\.sql/);
  });
});

describe("npm run admin", () => {
  it("calls the server on PORT (what npm run dev listens on), with the token", async () => {
    const seen = [];
    const server = createServer((req, res) => {
      seen.push([req.method, req.url, req.headers.authorization]);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ data: [] }));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = String(server.address().port);
      const result = await admin(["find-user", "--email", "a@example.com"], {
        PORT: port,
        ADMIN_TOKEN: "t0k",
      });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), { data: [] });
      assert.deepEqual(seen, [["GET", "/admin/v1/users?email=a%40example.com", "Bearer t0k"]]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("sign-in-link asks the operator API for a user's console invitation", async () => {
    const seen = [];
    const server = createServer((req, res) => {
      seen.push([req.method, req.url]);
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ url: "http://localhost/console/sign-in/l_x", expires_in: 900 }));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = String(server.address().port);
      const result = await admin(["sign-in-link", "--user_id", "7"], { PORT: port, ADMIN_TOKEN: "t0k" });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(JSON.parse(result.stdout).expires_in, 900);
      assert.deepEqual(seen, [["POST", "/admin/v1/users/7/sign-in-links"]]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
