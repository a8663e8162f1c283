// `npm run setup:cloudflare` prints, and runs nothing, unless --yes: every resource wrangler.toml binds.
// And wrangler.toml keeps dashboard vars through a deploy without declaring PUBLIC_BASE_URL (which a
// deploy would otherwise wipe). Plain Node, no worker.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

const toml = readFileSync("wrangler.toml", "utf8");
const names = (key) => [...toml.matchAll(new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "gm"))].map((m) => m[1]);
const script = (...args) =>
  // No npx on the PATH: a command that ran would fail the script.
  spawnSync(process.execPath, ["scripts/setup-cloudflare.mjs", ...args], {
    encoding: "utf8",
    env: { PATH: "/nonexistent" },
  });

describe("npm run setup:cloudflare", () => {
  it("prints the command of every D1 database, bucket, queue and secret, and runs none without --yes", () => {
    const result = script();
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /nothing was run/);
    for (const db of names("database_name"))
      assert.ok(result.stdout.includes(`npx wrangler d1 create ${db}\n`));
    for (const bucket of names("bucket_name"))
      assert.ok(result.stdout.includes(`npx wrangler r2 bucket create ${bucket}\n`));
    const queues = new Set([...names("queue"), ...names("dead_letter_queue")]);
    assert.equal(queues.size, 8);
    for (const queue of queues)
      assert.ok(result.stdout.includes(`npx wrangler queues create ${queue}\n`), queue);
    assert.match(result.stdout, /npx wrangler secret put ENCRYPTION_KEY/);
    assert.match(result.stdout, /npx wrangler secret put ADMIN_TOKEN/);
    assert.doesNotMatch(script("--no-admin").stdout, /secret put ADMIN_TOKEN/);
  });

  it("fails at the first command with --yes when wrangler cannot run, and says so", () => {
    const result = script("--yes");
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /stopped: `npx wrangler d1 create/);
  });

  it("shows the ADMIN_TOKEN it sets: once, at the end, with how to store it; the printed commands show theirs", () => {
    // A stand-in npx on the PATH: every wrangler command succeeds, and the secret's stdin is recorded.
    const bin = mkdtempSync(join(tmpdir(), "setup-cf-"));
    try {
      writeFileSync(
        join(bin, "npx"),
        `#!/bin/sh\ncase "$*" in *"secret put ADMIN_TOKEN"*) cat > "${bin}/admin-secret";; *) cat > /dev/null;; esac\n`,
      );
      chmodSync(join(bin, "npx"), 0o755);
      const result = spawnSync(process.execPath, ["scripts/setup-cloudflare.mjs", "--yes"], {
        encoding: "utf8",
        env: { PATH: `${bin}:/usr/bin:/bin` },
      });
      assert.equal(result.status, 0, result.stderr);
      const token = readFileSync(join(bin, "admin-secret"), "utf8").trim();
      assert.ok(token.length >= 32);
      assert.equal(result.stdout.split(token).length - 1, 1, "the token is shown exactly once");
      const tail = result.stdout.slice(result.stdout.lastIndexOf("Done."));
      assert.ok(tail.includes(token), "shown at the end, after every step");
      assert.match(tail, /password manager/);
      assert.match(tail, /ADMIN_TOKEN=.+ npm run admin -- --url https:\/\//);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
    // Without --yes, the printed command keeps the token it makes in a variable and shows it.
    assert.match(script().stdout, /echo "ADMIN_TOKEN=\$ADMIN_TOKEN/);
  });

  it("keeps dashboard vars through a deploy; PUBLIC_BASE_URL is not declared empty", () => {
    assert.match(toml, /^keep_vars = true$/m);
    assert.doesNotMatch(toml, /^PUBLIC_BASE_URL\s*=/m);
  });
});
