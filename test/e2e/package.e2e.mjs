// The package as an application installs it: `npm pack` (which builds client/dist through `prepack`), the
// tarball installed in a scratch folder (`npm install --prefer-offline`: its one dependency, openapi-fetch,
// comes from npm's cache after the repository's own `npm ci`, else from the registry: a cache that holds
// the tarball but not the metadata npm asks for made `--offline` fail on some machines), then both
// exports run under plain `node`: `social-publishing-api/verify-proof` checks a proof made by the
// service's own signer (src/delegation/proof.ts), and `social-publishing-api/client` calls a stub server
// on localhost. TypeScript then checks a file using the client's types against the installed package
// (request fields with defaults optional, the proof's platform a union), and a CommonJS application in
// TypeScript compiles ("module": "commonjs", and "node16") and runs against the same tarball.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { stubs } from "../../scripts/openapi.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const quiet = { ...process.env, npm_config_update_notifier: "false", NO_COLOR: "1" };

const run = (command, args, cwd) => {
  const result = spawnSync(command, args, { cwd, env: quiet, encoding: "utf8", timeout: 180_000 });
  assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
};

/** The service's signer, bundled for Node: the redirect URL a finished delegation sends the browser to. */
async function proofFromTheService(dir, { secret, state }) {
  const file = join(dir, "signer.mjs");
  await build({
    entryPoints: [join(ROOT, "src/delegation/proof.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    plugins: [stubs],
    outfile: file,
    logLevel: "error",
  });
  const { proofLocation } = await import(pathToFileURL(file).href);
  const identity = { platform: "twitter", platform_id: "1234567890", handle: "alice" };
  return proofLocation("https://app.example.test/callback", secret, { ...identity, state }, Date.now());
}

/** A stand-in for the API on localhost: records each request, answers a workspace list and a created post. */
async function stubApi(cleanup) {
  const requests = [];
  const server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    requests.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
    res.setHeader("Content-Type", "application/json");
    if (req.method === "GET" && req.url === "/api/v1/workspaces") {
      res.end(JSON.stringify({ data: [{ id: 7, name: "Acme", accounts: [] }] }));
    } else if (req.method === "POST" && req.url === "/api/v1/posts") {
      res.statusCode = 201;
      res.end(JSON.stringify({ id: 99, status: "DRAFT" }));
    } else {
      res.statusCode = 404;
      res.end(JSON.stringify({ message: "Post not found." }));
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { origin: `http://127.0.0.1:${server.address().port}`, requests };
}

// What the application runs, as plain JavaScript under plain node.
const APP = `
import { createClient } from "social-publishing-api/client";
import { verifyProof } from "social-publishing-api/verify-proof";

const [baseUrl, apiKey, callback, secret, state] = process.argv.slice(2);
const used = new Set();
const consumeState = (s) => s === state && !used.has(s) && used.add(s) !== undefined;
const good = await verifyProof(callback, { signingSecret: secret, consumeState });
const tampered = await verifyProof(callback.replace("handle=alice", "handle=mallory"), {
  signingSecret: secret,
  consumeState: () => true,
});
const replayed = await verifyProof(callback, { signingSecret: secret, consumeState });

const api = createClient({ baseUrl: baseUrl + "/", apiKey });
const list = await api.GET("/api/v1/workspaces");
const created = await api.POST("/api/v1/posts", {
  body: { workspace_id: 7, accounts: [3], content: [{ text: "Hello", media: [] }] },
});
const missing = await api.GET("/api/v1/posts/{id}", { params: { path: { id: 5 } } });
console.log(JSON.stringify({
  good, tampered: tampered.reason ?? "accepted", replayed: replayed.reason ?? "accepted",
  list: list.data, created: [created.response.status, created.data],
  missing: [missing.response.status, missing.error],
}));
`;

// Compiled against the installed package's types: a wrong path or body must not compile.
const TYPED = `
import { createClient, type Schema } from "social-publishing-api/client";
import { verifyProof, type VerifyResult } from "social-publishing-api/verify-proof";

const api = createClient({ baseUrl: "http://localhost", apiKey: "spk_x" });
const { data } = await api.GET("/api/v1/posts/{id}", { params: { path: { id: 1 } } });
const likes: number | undefined = data?.platforms[0]?.analytics.likes;
const row = data?.platforms[0];
if (row?.platform === "twitter") {
  const settings: Schema<"TwitterSettings"> = row.settings;
  void settings;
}
// Fields with defaults are optional in a request body (media, settings' fields); answers keep them.
await api.POST("/api/v1/posts", { body: { workspace_id: 1, accounts: [1], content: [{ text: "hi" }] } });
await api.POST("/api/v1/posts", {
  body: { workspace_id: 1, accounts: [1], content: [{ text: "hi" }], settings: { twitter: { reply_settings: "following" } } },
});
const item: { text: string; media: unknown[] } | undefined = data?.content[0];
// @ts-expect-error: no such path
await api.GET("/api/v1/nothing");
// @ts-expect-error: content must be an array of items
await api.POST("/api/v1/posts", { body: { workspace_id: 1, accounts: [1], content: "text" } });
const result: VerifyResult = await verifyProof("", { signingSecret: "s", consumeState: () => true });
type Platform = "tiktok" | "instagram" | "twitter" | "linkedin" | "youtube" | "facebook" | "pinterest" | "threads";
// The platform union, not string.
const platform: Platform | undefined = result.ok ? result.proof.platform : undefined;
void likes;
void item;
void result;
void platform;
`;

// A CommonJS application in TypeScript: compiled with "module": "commonjs" (so `require` at run time and
// node10 resolution at compile time), then run under plain node. The same file must also compile under
// "module": "node16" (the `require` conditions of the package's exports).
const CJS = `
import { createClient } from "social-publishing-api/client";
import { verifyProof } from "social-publishing-api/verify-proof";

declare const process: { argv: string[] };

async function main() {
  const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];
  const api = createClient({ baseUrl, apiKey });
  const created = await api.POST("/api/v1/posts", {
    body: { workspace_id: 7, accounts: [3], content: [{ text: "From CommonJS" }] },
  });
  const proof = await verifyProof("https://app.example/cb?platform=x", { signingSecret: "s", consumeState: () => true });
  console.log(JSON.stringify({ status: created.response.status, data: created.data, proof: proof.ok ? "ok" : proof.reason }));
}
void main();
`;

test("npm pack gives a package whose client and verifier run under plain node", {
  timeout: 300_000,
}, async (t) => {
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  const dir = mkdtempSync(join(tmpdir(), "package-e2e-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));

  const [packed] = JSON.parse(run(NPM, ["pack", "--json", "--pack-destination", dir], ROOT));
  const files = packed.files.map((file) => file.path).sort();
  assert.ok(files.includes("client/dist/index.js") && files.includes("client/dist/verify-proof.d.ts"), files);
  assert.deepEqual(
    files.filter((file) => file.startsWith("src/") || file.endsWith(".ts") !== file.endsWith(".d.ts")),
    [],
    "the package ships compiled JavaScript and declarations only",
  );

  const app = join(dir, "app");
  run("mkdir", ["-p", app], dir);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", join(dir, packed.filename)], app);
  // The worker's own dependencies are not the package's: only openapi-fetch comes along.
  assert.deepEqual(
    readdirSync(join(app, "node_modules"))
      .filter((name) => !name.startsWith("."))
      .sort(),
    ["openapi-fetch", "openapi-typescript-helpers", "social-publishing-api"],
  );
  assert.equal(existsSync(join(app, "node_modules/social-publishing-api/src")), false);

  const secret = "sps_package_e2e_secret";
  const state = "state-from-the-app";
  const callback = await proofFromTheService(dir, { secret, state });
  assert.ok(callback?.includes("sig="), callback ?? "no proof");
  const api = await stubApi(cleanup);
  writeFileSync(join(app, "app.mjs"), APP);
  const out = await new Promise((resolve, reject) => {
    // Asynchronous: the stub server answers from this process.
    import("node:child_process").then(({ execFile }) =>
      execFile(
        process.execPath,
        ["app.mjs", api.origin, "spk_package_e2e", callback, secret, state],
        { cwd: app, timeout: 60_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  });
  const result = JSON.parse(out);
  assert.equal(result.good.ok, true, JSON.stringify(result.good));
  assert.deepEqual(
    {
      platform: result.good.proof.platform,
      handle: result.good.proof.handle,
      state: result.good.proof.state,
    },
    { platform: "twitter", handle: "alice", state },
  );
  assert.equal(result.tampered, "bad_signature");
  assert.equal(result.replayed, "state_rejected");
  assert.deepEqual(result.list, { data: [{ id: 7, name: "Acme", accounts: [] }] });
  assert.deepEqual(result.created, [201, { id: 99, status: "DRAFT" }]);
  assert.deepEqual(result.missing, [404, { message: "Post not found." }]);
  assert.deepEqual(
    api.requests.map(({ method, url, authorization }) => [method, url, authorization]),
    [
      ["GET", "/api/v1/workspaces", "Bearer spk_package_e2e"],
      ["POST", "/api/v1/posts", "Bearer spk_package_e2e"],
      ["GET", "/api/v1/posts/5", "Bearer spk_package_e2e"],
    ],
  );
  assert.deepEqual(JSON.parse(api.requests[1].body), {
    workspace_id: 7,
    accounts: [3],
    content: [{ text: "Hello", media: [] }],
  });

  // Installing ran none of the package's scripts: the tarball carries client/dist already built.
  const installed = JSON.parse(
    readFileSync(join(app, "node_modules/social-publishing-api/package.json"), "utf8"),
  );
  assert.deepEqual(
    Object.keys(installed.scripts ?? {}).filter((name) => /^(pre|post)?(install|prepare)$/.test(name)),
    [],
  );

  writeFileSync(join(app, "typed.ts"), TYPED);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: "es2022",
    module: "nodenext",
    lib: ["es2022", "dom"],
    types: [],
  };
  writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["typed.ts"] }));
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  run(process.execPath, [tsc, "-p", "tsconfig.json"], app);

  const cjs = join(dir, "cjs-app");
  run("mkdir", ["-p", cjs], dir);
  writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "cjs-app", private: true }));
  run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", join(dir, packed.filename)], cjs);
  writeFileSync(join(cjs, "main.ts"), CJS);
  const cjsOptions = {
    strict: true,
    skipLibCheck: true,
    target: "es2022",
    lib: ["es2022", "dom"],
    types: [],
  };
  writeFileSync(
    join(cjs, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { ...cjsOptions, module: "commonjs", outDir: "out" },
      files: ["main.ts"],
    }),
  );
  writeFileSync(
    join(cjs, "tsconfig.node16.json"),
    JSON.stringify({
      compilerOptions: { ...cjsOptions, module: "node16", noEmit: true },
      files: ["main.ts"],
    }),
  );
  run(process.execPath, [tsc, "-p", "tsconfig.json"], cjs);
  run(process.execPath, [tsc, "-p", "tsconfig.node16.json"], cjs);
  assert.match(readFileSync(join(cjs, "out/main.js"), "utf8"), /require\("social-publishing-api\/client"\)/);
  const cjsOut = await new Promise((resolve, reject) => {
    import("node:child_process").then(({ execFile }) =>
      execFile(
        process.execPath,
        ["out/main.js", api.origin, "spk_cjs"],
        { cwd: cjs, timeout: 60_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
  });
  assert.deepEqual(JSON.parse(cjsOut), {
    status: 201,
    data: { id: 99, status: "DRAFT" },
    proof: "malformed",
  });
});
