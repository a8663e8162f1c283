// The operator CLI (`npm run admin`) finds the local server where `npm run dev` put it: `PORT`, the
// same variable the dev server listens on, unless --url or ADMIN_URL says otherwise. Plain Node, no
// worker: a stub server stands in for the operator API.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import { describe, it } from "node:test";

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
});
