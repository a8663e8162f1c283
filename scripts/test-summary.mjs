#!/usr/bin/env node
// Prints vitest's JSON results as one plain closing line: "N passed, N failed, N skipped".
import { existsSync, readFileSync } from "node:fs";

const file = process.argv[2] ?? ".wrangler/test-results.json";
if (!existsSync(file)) {
  console.error(`no test results at ${file}`);
  process.exit(1);
}
const results = JSON.parse(readFileSync(file, "utf8"));
const skipped = results.numPendingTests + results.numTodoTests;
process.stdout.write(
  `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`,
);
