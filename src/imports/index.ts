// Bulk import (ability `posts`): upload up to 1,000 posts as JSON or CSV, each row validated as the dry
// run validates a post (nothing created), read the import back (JSON, or its rows with their problems as
// CSV), then commit: the valid rows' posts, once, in row order (commit.ts).
import type { Context } from "hono";
import { z } from "zod";
import type { Platform } from "../db/enums";
import type { ApiEnv } from "../http/env";
import { invalidField, invalidInput, unknownField } from "../http/errors";
import { jsonContent } from "../http/openapi";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { importGuard } from "../lib/url-guard";
import { mediaLimits } from "../media/config";
import { lookupAdapter } from "../platforms";
import { type CommitContext, commitImport, type MediaProgress, mediaProgress } from "./commit";
import { insertImport, loadImport, type StoredImport } from "./queries";
import { type ImportRow, MAX_ROWS, parseCsv, problemsCsv, type RowContext, validateRows } from "./rows";
import {
  commitSchema,
  type ImportAnswer,
  importCsvBody,
  importJsonBody,
  importParams,
  importQuery,
  importSchema,
} from "./schemas";

const route = apiRoutes("posts");

const tags = ["Imports"];

const ROWS = `Each row is checked exactly as \`POST /api/v1/posts/validate\` checks a post (the schema, then create's checks and every target account's publish checks) and answered as \`{row, valid, problems: [{field, code, message}]}\`: \`field\` is the path in the row (\`content.0.text\`, \`accounts.1\`, \`scheduled_at\`), or for CSV the column. At most ${MAX_ROWS} rows; the body at most 1 MiB. Imports are kept 30 days.`;

const CSV = `CSV: \`Content-Type: text/csv\` and \`?workspace_id=\`; a header row of columns among \`accounts\` (ids joined by \`;\`), \`text\`, \`scheduled_at\` (ISO 8601 with an offset), \`media\` (media ids or http(s) URLs joined by \`;\`; URLs are imported at commit), \`labels\` (ids joined by \`;\`), \`queue\` (\`true\` or empty); a column the import does not know is a 422 naming it. Quoted fields, \`""\` inside quotes, line breaks inside quotes, CRLF and a BOM are read as spreadsheets write them; blank lines are skipped; a row with more or fewer cells than the header is a \`ragged_row\` problem.`;

function present(
  imp: StoredImport,
  created: Array<{ row: number; postId: number }>,
  media: MediaProgress | undefined,
): ImportAnswer {
  const rows = imp.rows.map((r) => ({ row: r.row, valid: r.problems.length === 0, problems: r.problems }));
  const valid = rows.filter((r) => r.valid).length;
  return {
    id: imp.id,
    workspace_id: imp.workspaceId,
    status: imp.status,
    total: rows.length,
    valid,
    invalid: rows.length - valid,
    rows,
    created: created.map((c) => ({ row: c.row, post_id: c.postId })),
    ...(media ? { media } : {}),
  };
}

/** The import as answered: with its media's progress when its rows have media URLs. */
async function answer(c: Context<ApiEnv>, id: string) {
  const { stored, created } = await loadImport(c.var.db, c.var.principal, id);
  return { stored, json: present(stored, created, await mediaProgress(c.var.db, stored.rows)) };
}

const rowContext = (c: Context<ApiEnv>): RowContext => {
  const origin = publicOrigin(c.env, c.req.url);
  return {
    configured: (platform: Platform) =>
      lookupAdapter(c.env, platform, origin, c.var.principal.mode).kind === "ok",
    allow: importGuard(c.env).allow,
  };
};

const committing = (c: Context<ApiEnv>): CommitContext => ({
  env: c.env,
  origin: publicOrigin(c.env, c.req.url),
  queue: c.env.PUBLISH_QUEUE,
  rows: rowContext(c),
  media: { queue: c.env.MEDIA_IMPORT_QUEUE, guard: importGuard(c.env), limits: mediaLimits(c.env) },
});

const csvAnswer = (c: Context<ApiEnv>, rows: ImportRow[], id: string) =>
  c.body(problemsCsv(rows), 200, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${id}-problems.csv"`,
  });

const wantsCsv = (c: Context<ApiEnv>) => /\btext\/csv\b/i.test(c.req.header("accept") ?? "");

/** The upload as rows to check: from the CSV (with its workspace in the query) or the JSON body. */
async function uploaded(
  c: Context<ApiEnv>,
  json: { workspace_id: number; posts: unknown[]; commit?: boolean },
  query: { workspace_id?: number },
) {
  if (/^text\/csv\b/i.test(c.req.header("content-type") ?? "")) {
    if (query.workspace_id === undefined)
      throw invalidField("workspace_id", "The workspace id field is required.");
    const rows = parseCsv(await c.req.text());
    if (rows.length === 0) throw invalidField("posts", "The posts field must have at least 1 item.");
    if (rows.length > MAX_ROWS)
      throw invalidField("posts", `The posts field must not have more than ${MAX_ROWS} items.`);
    return { workspaceId: query.workspace_id, format: "csv" as const, rows, commit: false };
  }
  // JSON names its workspace in the body: a second one in the query could only contradict it.
  if (query.workspace_id !== undefined) throw unknownField("workspace_id");
  // The body is optional in the document (a CSV one is not JSON): none at all gets here unparsed.
  if (c.req.header("content-type") === undefined) throw invalidInput(importJsonBody.safeParse({}).error!, {});
  return {
    workspaceId: json.workspace_id,
    format: "json" as const,
    rows: json.posts.map((input, i) => ({ row: i + 1, input })),
    commit: json.commit === true,
  };
}

export const importsRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "post",
      operationId: "createImport",
      path: "/",
      // With `commit: true` it creates posts: a retry with the same Idempotency-Key answers the first answer.
      idempotent: true,
      tags,
      summary: "Upload posts to import",
      description: [
        "Validates every post of the upload and stores the import; nothing is created until it is committed (`POST /api/v1/imports/{id}/commit`, or `commit: true` in a JSON body). A bad row is a problem of that row, never a 422 of the upload: the answer says which rows are valid and why the others are not. JSON: `{workspace_id, posts: [<the body of POST /api/v1/posts without workspace_id>]}`.",
        CSV,
        ROWS,
      ].join("\n\n"),
      request: {
        query: importQuery,
        body: {
          content: { "application/json": { schema: importJsonBody }, "text/csv": { schema: importCsvBody } },
          required: false,
        },
      },
      responses: {
        201: jsonContent(importSchema, "The import, validated (or committed with `commit: true`)."),
      },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      // Typed as either body; only a JSON one was parsed (a CSV one is read as text by uploaded()).
      const json = c.req.valid("json") as z.output<typeof importJsonBody>;
      const upload = await uploaded(c, json, c.req.valid("query"));
      const rows = await validateRows(db, principal, upload.workspaceId, upload.rows, rowContext(c));
      const stored = await insertImport(db, principal, {
        workspaceId: upload.workspaceId,
        format: upload.format,
        rows,
      });
      if (upload.commit) await commitImport(db, principal, stored.id, committing(c));
      return c.json((await answer(c, stored.id)).json, 201);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getImport",
      path: "/{id}",
      tags,
      summary: "Get an import",
      description: `The import as the upload answered it, with its \`status\` and, once committed, the posts created. With \`Accept: text/csv\`, the rows with their problems as CSV (as \`/problems.csv\`). ${ROWS}`,
      request: { params: importParams },
      responses: {
        200: {
          description: "The import (or its rows as CSV).",
          content: { "application/json": { schema: importSchema }, "text/csv": { schema: z.string() } },
        },
      },
      errors: [404],
    }),
    async (c) => {
      const id = c.req.valid("param").id;
      if (wantsCsv(c)) {
        const { stored } = await loadImport(c.var.db, c.var.principal, id);
        return csvAnswer(c, stored.rows, stored.id);
      }
      return c.json((await answer(c, id)).json, 200);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "getImportProblems",
      path: "/{id}/problems.csv",
      tags,
      summary: "Download an import's rows with their problems (CSV)",
      description:
        "Every row of the import as CSV, with the columns of the CSV upload plus `row` (first) and `problems` (last: one `field: message` per line, empty for a valid row), for a spreadsheet user to fix the rows and upload them again. A JSON upload's rows are written in the same columns (its first content item).",
      request: { params: importParams },
      responses: {
        200: { description: "The rows as CSV.", content: { "text/csv": { schema: z.string() } } },
      },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { stored } = await loadImport(db, principal, c.req.valid("param").id);
      return csvAnswer(c, stored.rows, stored.id);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "commitImport",
      path: "/{id}/commit",
      tags,
      summary: "Commit an import",
      description:
        "Checks the import's valid rows again as the upload did (a row that became invalid since, an account expired or disconnected meanwhile, is not created and is listed in `failed`), then creates their posts, in row order, each as `POST /api/v1/posts` creates it (queued rows take their slots in row order). A row is created at most once: a second commit, or one racing this one, creates nothing more and answers the same; a commit whose worker stopped midway is finished by the next commit (after a minute). While another commit of the import is under way the answer waits for it (up to 20 seconds, then 409: send it again).\n\nRows with media URLs: the first commit imports every valid row's URLs as `POST /api/v1/media/upload/url` does (the same caps, storage quota and address checks; each URL once, a page giving its media in document order, at most 100 items per import) and answers `status: \"importing_media\"` with `media: {ready, failed, pending}`, creating nothing yet. Send the commit again (or poll `GET /api/v1/imports/{id}` until `media.pending` is 0, then commit): while items download it answers the same; once every item is ready or failed it creates the posts in row order, each URL replaced by its items. A row whose URL gave no item, or whose download failed, is not created and is listed in `failed` with `media_import_failed` and the reason. The media are started once, whatever commits retry or race.",
      request: { params: importParams },
      responses: { 200: jsonContent(commitSchema, "What the commit created.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      return c.json(await commitImport(db, principal, c.req.valid("param").id, committing(c)), 200);
    },
  );
