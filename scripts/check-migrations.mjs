#!/usr/bin/env node
// Fails when src/db/tables/ and migrations/ disagree: drizzle-kit generates into a scratch copy
// of migrations/, and any new SQL file there means a migration is missing.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";

// drizzle-kit wants a path relative to the project; .wrangler/ is ignored by git.
const scratch = ".wrangler/migrations-check";
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
try {
  cpSync("migrations", scratch, { recursive: true });
  const before = new Set(readdirSync(scratch));
  const run = spawnSync(
    "drizzle-kit",
    [
      "generate",
      "--dialect",
      "sqlite",
      "--schema",
      "./src/db/tables/*.ts",
      "--out",
      scratch,
      "--name",
      "drift",
    ],
    { encoding: "utf8" },
  );
  if (run.status !== 0 || !existsSync(`${scratch}/meta/_journal.json`) || /Error/.test(run.stderr)) {
    console.error(run.stdout, run.stderr);
    process.exit(1);
  }
  const added = readdirSync(scratch).filter((f) => !before.has(f) && f.endsWith(".sql"));
  if (added.length > 0) {
    console.error("src/db/tables/ has changes without a migration: run `npm run db:generate` and commit it.");
    process.exit(1);
  }
  process.stdout.write("migrations match the schema\n");
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
