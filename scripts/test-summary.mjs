#!/usr/bin/env node
// Prints one plain closing line for the whole run: the vitest runs' counts (scripts/vitest.mjs) plus the
// end-to-end TAP results, as "tests: N passed, N failed, N skipped". A missing vitest report is a failure.
import { existsSync, readFileSync } from "node:fs";

const vitestFile = process.argv[2] ?? ".wrangler/test-results.json";
const e2eFile = process.argv[3] ?? ".wrangler/e2e-results.tap";
if (!existsSync(vitestFile)) {
  console.error(`no test results at ${vitestFile}`);
  process.exit(1);
}
const vitest = JSON.parse(readFileSync(vitestFile, "utf8"));
let passed = vitest.numPassedTests;
let failed = vitest.numFailedTests;
let skipped = vitest.numPendingTests + vitest.numTodoTests;
if (existsSync(e2eFile)) {
  const tap = readFileSync(e2eFile, "utf8");
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "m").exec(tap)?.[1] ?? 0);
  passed += count("pass");
  failed += count("fail") + count("cancelled");
  skipped += count("skipped") + count("todo");
}
process.stdout.write(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
