// Writes the OpenAPI documents as the worker serves them, without starting it: the app is bundled with
// esbuild (the workerd-only `cloudflare:workers` module stubbed, Swagger UI's bundle left out), loaded in
// Node, and asked for GET /openapi.json and GET /admin/openapi.json. `npm run lint:openapi` lints what
// this writes; `npm run generate:client` turns the public one into the client's types.
//
//   node scripts/openapi.mjs [outDir]     writes <outDir>/openapi.json and <outDir>/admin-openapi.json
//                                         (default .wrangler/)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** The origin the written documents name as their server. */
export const DOCUMENT_ORIGIN = "http://localhost:8787";

/** esbuild plugin: workerd-only modules stubbed, so a bundle of worker code loads in Node. */
export const stubs = {
  name: "workerd-stubs",
  setup(b) {
    // Module-level imports only: nothing of them runs while the document is built.
    b.onResolve({ filter: /^cloudflare:workers$/ }, () => ({
      path: "cloudflare:workers",
      namespace: "stub",
    }));
    b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
      contents: "export class DurableObject {}\nexport const exports = {};\nexport const env = {};\n",
      loader: "js",
    }));
    b.onResolve({ filter: /swagger-ui-bundle\.js$/ }, () => ({
      path: "swagger-ui-bundle",
      namespace: "empty",
    }));
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: 'export default "";', loader: "js" }));
  },
};

/** The two documents, as the worker answers them for DOCUMENT_ORIGIN. */
export async function buildDocuments() {
  const bundle = await build({
    entryPoints: [join(ROOT, "src/app.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    // As wrangler resolves packages for a worker: papaparse's browser build (its main one needs Node's stream).
    mainFields: ["browser", "module", "main"],
    conditions: ["workerd", "worker", "browser", "import"],
    loader: { ".css": "text", ".md": "text" },
    plugins: [stubs],
    write: false,
    logLevel: "error",
  });
  const dir = mkdtempSync(join(tmpdir(), "openapi-"));
  try {
    const file = join(dir, "app.mjs");
    writeFileSync(file, bundle.outputFiles[0].text);
    const { app } = await import(pathToFileURL(file).href);
    const env = { PUBLIC_BASE_URL: DOCUMENT_ORIGIN };
    const fetchJson = async (path) => {
      // The request log (console.info) is the worker's, not this script's.
      const log = console.info;
      console.info = () => {};
      const answer = await app.request(path, {}, env).finally(() => {
        console.info = log;
      });
      if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}`);
      return answer.json();
    };
    return { public: await fetchJson("/openapi.json"), operator: await fetchJson("/admin/openapi.json") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(ROOT, process.argv[2] ?? ".wrangler");
  mkdirSync(out, { recursive: true });
  const documents = await buildDocuments();
  writeFileSync(join(out, "openapi.json"), `${JSON.stringify(documents.public, null, 2)}\n`);
  writeFileSync(join(out, "admin-openapi.json"), `${JSON.stringify(documents.operator, null, 2)}\n`);
  console.info(`wrote ${join(out, "openapi.json")} and ${join(out, "admin-openapi.json")}`);
}
