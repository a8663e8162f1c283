// Builds the package's client/dist/: the typed client and the proof verifier as ES modules (what
// `import` resolves) and again as CommonJS in client/dist/cjs/ (what `require` and a TypeScript consumer
// with "module": "commonjs" resolve), each with its declarations. Run by `npm run build:client`, and so
// by `npm pack` (`prepack`); an application installing the tarball runs nothing.
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const DIST = join(ROOT, "client", "dist");
const CJS = join(DIST, "cjs");
const CJS_FLAGS = ["--module", "commonjs", "--moduleResolution", "node10", "--outDir", CJS];

rmSync(DIST, { recursive: true, force: true });
for (const project of ["client/tsconfig.json", "client/tsconfig.verify-proof.json"]) {
  for (const flags of [[], CJS_FLAGS]) {
    const run = spawnSync(process.execPath, [TSC, "-p", project, ...flags], { cwd: ROOT, stdio: "inherit" });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}
// The package is "type": "module"; this marks the copy in cjs/ as CommonJS for Node and TypeScript.
mkdirSync(CJS, { recursive: true });
writeFileSync(join(CJS, "package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);
