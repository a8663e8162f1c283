// `npm run setup:cloudflare` prints, and runs nothing, unless --yes: every resource wrangler.toml binds.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

describe("scripts/setup-cloudflare.mjs", () => {
  it("prints the command of every D1 database, bucket, queue and secret, and runs none without --yes", () => {
    // No npx on the PATH: a command that ran would fail the script.
    const result = spawnSync(process.execPath, ["scripts/setup-cloudflare.mjs"], {
      encoding: "utf8",
      env: { PATH: "/nonexistent" },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("nothing was run");
    const toml = readFileSync("wrangler.toml", "utf8");
    const names = (key: string) => [...toml.matchAll(new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "gm"))].map((m) => m[1]!);
    for (const db of names("database_name")) expect(result.stdout).toContain(`npx wrangler d1 create ${db}`);
    for (const bucket of names("bucket_name")) expect(result.stdout).toContain(`npx wrangler r2 bucket create ${bucket}`);
    const queues = new Set([...names("queue"), ...names("dead_letter_queue")]);
    expect(queues.size).toBe(8);
    for (const queue of queues) expect(result.stdout).toContain(`npx wrangler queues create ${queue}\n`);
    expect(result.stdout).toContain("npx wrangler secret put ENCRYPTION_KEY");
    expect(result.stdout).toContain("npx wrangler secret put ADMIN_TOKEN");
    const withoutAdmin = spawnSync(process.execPath, ["scripts/setup-cloudflare.mjs", "--no-admin"], {
      encoding: "utf8",
    });
    expect(withoutAdmin.stdout).not.toContain("secret put ADMIN_TOKEN");
  });

  it("keeps dashboard vars through a deploy and does not declare PUBLIC_BASE_URL (which a deploy would wipe)", () => {
    const toml = readFileSync("wrangler.toml", "utf8");
    expect(toml).toMatch(/^keep_vars = true$/m);
    expect(toml).not.toMatch(/^PUBLIC_BASE_URL\s*=/m);
  });
});
