// The rows of an import, from JSON or CSV, each checked exactly as the dry run checks a post
// (validatePost, src/posts/validate.ts): the schema of POST /posts, then create's checks and every
// target account's publish checks. A media URL is checked by the media URL import's own rule
// (checkImportUrl): one it refuses is a problem; one it accepts is imported at commit (commit.ts), so
// what its media must satisfy (a platform's type, size, "needs media") is checked then. Problems carry
// the row's field path (`content.0.text`), or for CSV the column (`text`).
import Papa from "papaparse";
import type { Database } from "../db/client";
import type { Tenant } from "../db/tenancy";
import { invalidInput, unknownField } from "../http/errors";
import { checkImportUrl } from "../lib/url-guard";
import { readForCreate } from "../posts/save";
import { type CreatePostInput, createPostBody, type PostValidation } from "../posts/schemas";
import { type ValidateContext, validatePost } from "../posts/validate";

export const MAX_ROWS = 1000;

/** The CSV columns, in the order the problems download writes them. */
export const CSV_COLUMNS = ["accounts", "text", "scheduled_at", "media", "labels", "queue"] as const;
type Column = (typeof CSV_COLUMNS)[number];
/** The problems download's own columns: accepted and ignored, so a fixed download uploads as it is. */
const DOWNLOAD_COLUMNS: readonly string[] = ["row", "problems"];

export type Problem = { field: string; code: string; message: string };

/** One row as stored: what was sent (the post body; for CSV also its cells) and what is wrong with it. */
export type ImportRow = {
  row: number;
  input: unknown;
  cells?: Partial<Record<Column, string>>;
  problems: Problem[];
  /** Set at commit when the row, valid at upload, was refused then. */
  failedAtCommit?: boolean;
  /** Set by the commit that started the media imports: each media URL of the row → the items it gave. */
  mediaIds?: Record<string, number[]>;
};

const rowSchema = createPostBody.omit({ workspace_id: true });

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isUrl = (value: unknown): value is string => typeof value === "string" && /^https?:\/\//i.test(value);

/**
 * A stable code per kind of problem, from where and what the dry run says (its messages are Laravel's,
 * so the codes are the machine-readable half).
 */
function codeOf(field: string, message: string): string {
  if (message.endsWith("field is not allowed.")) return "unknown_field";
  if (/is required\.$|must have at least|needs text or media/.test(message)) return "required";
  if (message.includes("has expired")) return "account_expired";
  if (message.includes("is not configured")) return "platform_not_configured";
  if (/^(accounts|labels|content\.\d+\.media)\.\d+$/.test(field) && message.startsWith("The selected"))
    return "not_found";
  if (field === "scheduled_at") return "invalid_date";
  if (field === "queue") return "queue";
  if (/^content\.\d+\.text$/.test(field) && message.includes("greater than")) return "text_too_long";
  if (/^accounts\.\d+$/.test(field) || field.startsWith("settings") || field.startsWith("content"))
    return "platform_rule";
  return "invalid";
}

const toProblems = (errors: Record<string, string[]>): Problem[] =>
  Object.entries(errors).flatMap(([field, messages]) =>
    messages.map((message) => ({ field, code: codeOf(field, message), message })),
  );

/** The media URLs of a row (each once, in order): what its commit imports before creating it. */
export function mediaUrlsOf(input: unknown): string[] {
  if (!isObject(input) || !Array.isArray(input.content)) return [];
  const media = input.content.flatMap((item) =>
    isObject(item) && Array.isArray(item.media) ? item.media : [],
  );
  return [...new Set(media.filter(isUrl))];
}

/** Where a row names a media URL first: its path (`content.1.media.0`), or for CSV the `media` column. */
export function mediaUrlField(row: Pick<ImportRow, "input" | "cells">, url: string): string {
  const { input } = row;
  if (!row.cells && isObject(input) && Array.isArray(input.content))
    for (const [i, item] of input.content.entries())
      if (isObject(item) && Array.isArray(item.media) && item.media.includes(url))
        return `content.${i}.media.${item.media.indexOf(url)}`;
  return "media";
}

/** The row with each media URL replaced by the ids of the items it gave, in order. */
export function withMediaIds(input: unknown, ids: Record<string, number[]>): unknown {
  if (!isObject(input) || !Array.isArray(input.content)) return input;
  const content = input.content.map((item) =>
    isObject(item) && Array.isArray(item.media)
      ? { ...item, media: item.media.flatMap((m) => (isUrl(m) ? (ids[m] ?? []) : [m])) }
      : item,
  );
  return { ...input, content };
}

/**
 * Stands in at upload for the text of an item whose only media are URLs (imported at commit), so the
 * schema's "text or media" holds; never stored or created.
 */
const AWAITING_MEDIA = ".";

/** The post body without its media URLs (checked apart), the refused URLs' problems, and the items with URLs. */
function withoutUrls(body: Record<string, unknown>, allow: ReadonlySet<string>) {
  const problems: Problem[] = [];
  const withUrls = new Set<number>();
  if (!Array.isArray(body.content)) return { body, problems, withUrls };
  const content = body.content.map((item, i) => {
    if (!isObject(item) || !Array.isArray(item.media)) return item;
    const media = item.media.filter((value, k) => {
      if (!isUrl(value)) return true;
      const check = checkImportUrl(value, allow);
      if (check.ok) withUrls.add(i);
      else
        problems.push({
          field: `content.${i}.media.${k}`,
          code: "media_url_refused",
          message: `The content.${i}.media.${k} URL cannot be imported: ${check.reason}.`,
        });
      return false;
    });
    // Only a missing or blank text: any other is the schema's to judge as sent.
    const empty =
      media.length === 0 &&
      (item.text === undefined || (typeof item.text === "string" && item.text.trim() === ""));
    return withUrls.has(i) && empty ? { ...item, media, text: AWAITING_MEDIA } : { ...item, media };
  });
  return { body: { ...body, content }, problems, withUrls };
}

/**
 * A platform's "needs media" on the first item, when that item's media are URLs: they are there once
 * imported, and checked then.
 */
const awaitsMedia = (problem: Problem, withUrls: ReadonlySet<number>) =>
  withUrls.has(0) &&
  problem.field === "content.0.media" &&
  /field (is required|must include a video) on /.test(problem.message);

/**
 * The post a valid row creates (the schema's defaults applied), or the problem that keeps a row from
 * being created now although it validated.
 */
export function postOfRow(input: unknown, workspaceId: number): CreatePostInput | Problem {
  const parsed = rowSchema.safeParse(input);
  if (parsed.success) return { ...parsed.data, workspace_id: workspaceId };
  return { field: "row", code: "refused_at_commit", message: "The row no longer matches the post schema." };
}

export type RowContext = ValidateContext & { allow: ReadonlySet<string> };

/** A row the schema accepted: the post it stands for, checked against the database next. */
type Parsed = { index: number; input: CreatePostInput; withUrls: ReadonlySet<number> };

/** The schema's part of a row's check: the post body, or its problems. */
function parseRow(
  input: unknown,
  workspaceId: number,
  allow: ReadonlySet<string>,
): Omit<Parsed, "index"> | Problem[] {
  if (!isObject(input))
    return [{ field: "row", code: "invalid_type", message: "The row must be an object." }];
  const { body, problems, withUrls } = withoutUrls(input, allow);
  const parsed = rowSchema.safeParse(body);
  if (!parsed.success)
    return [...problems, ...toProblems(invalidInput(parsed.error, body).body.errors ?? {})];
  if (problems.length > 0) return problems;
  return { input: { ...parsed.data, workspace_id: workspaceId }, withUrls };
}

/** D1 binds at most 100 parameters per statement: a shared read names at most this many ids of a kind. */
const IDS_PER_READ = 90;

/**
 * Rows that can share one read of create's batch: the same queued accounts (the slots taken are read
 * for those), and at most IDS_PER_READ account, label and media ids between them.
 */
function groupsOf(rows: Parsed[]): Parsed[][] {
  const open = new Map<string, { rows: Parsed[]; ids: Array<Set<number>> }>();
  const done: Parsed[][] = [];
  for (const row of rows) {
    const key = row.input.queue ? [...row.input.accounts].sort((a, b) => a - b).join() : "";
    const kinds = [
      row.input.accounts,
      row.input.labels ?? [],
      row.input.content.flatMap((item) => item.media),
    ];
    let group = open.get(key);
    const fits = (g: NonNullable<typeof group>) =>
      kinds.every((ids, k) => new Set([...g.ids[k]!, ...ids]).size <= IDS_PER_READ);
    if (group && !fits(group)) {
      done.push(group.rows);
      group = undefined;
    }
    if (!group) {
      group = { rows: [], ids: [new Set(), new Set(), new Set()] };
      open.set(key, group);
    }
    group.rows.push(row);
    kinds.forEach((ids, k) => {
      for (const id of ids) group.ids[k]!.add(id);
    });
  }
  return [...done, ...[...open.values()].map((g) => g.rows)];
}

/** One post body naming every id of the group: create's read of it serves each of the group's posts. */
function unionOf(group: Parsed[]): CreatePostInput {
  const ids = (pick: (input: CreatePostInput) => number[]) => [
    ...new Set(group.flatMap((r) => pick(r.input))),
  ];
  const first = group[0]!.input;
  return {
    ...first,
    accounts: ids((i) => i.accounts),
    labels: ids((i) => i.labels ?? []),
    content: [{ text: "", media: ids((i) => i.content.flatMap((item) => item.media)) }],
  };
}

/** The dry run's problems of one post, create's 422 errors first, then each account's, without repeats. */
function problemsOfValidation(validation: PostValidation): Problem[] {
  const problems = toProblems(validation.errors);
  const seen = new Set(problems.map((p) => `${p.field}\n${p.message}`));
  for (const account of validation.accounts)
    for (const { field, message } of account.problems)
      if (!seen.has(`${field}\n${message}`)) {
        seen.add(`${field}\n${message}`);
        problems.push({ field, code: codeOf(field, message), message });
      }
  return problems;
}

/**
 * Validates every row as the dry run validates a post (validatePost), in row order. Rows share create's
 * read batch (groupsOf): a 1,000-row upload costs a few D1 round trips, not a thousand.
 */
export async function validateRows(
  db: Database,
  tenant: Tenant,
  workspaceId: number,
  rows: Array<Omit<ImportRow, "problems"> & { problems?: Problem[] }>,
  ctx: RowContext,
): Promise<ImportRow[]> {
  const problems: Problem[][] = rows.map((row) => row.problems ?? []);
  const parsed: Parsed[] = [];
  rows.forEach((row, index) => {
    // A ragged CSV row is not read further: its cells may sit in the wrong columns.
    if (problems[index]!.some((p) => p.code === "ragged_row")) return;
    const result = parseRow(row.input, workspaceId, ctx.allow);
    if (Array.isArray(result)) problems[index]!.push(...result);
    else parsed.push({ index, ...result });
  });
  const now = new Date();
  for (const group of groupsOf(parsed)) {
    const reads = await readForCreate(db, tenant, unionOf(group), now);
    for (const row of group)
      problems[row.index]!.push(
        ...problemsOfValidation(await validatePost(db, tenant, row.input, ctx, reads)).filter(
          (problem) => !awaitsMedia(problem, row.withUrls),
        ),
      );
  }
  return rows.map((row, index) => ({
    ...row,
    problems: row.cells ? problems[index]!.map(toColumn) : problems[index]!,
  }));
}

/** A CSV row's problem names its column: `content.0.text` is `text`, `accounts.2` is `accounts`. */
function toColumn(problem: Problem): Problem {
  const field = problem.field
    .replace(/^content\.0\.(text|media)(\..*)?$/, "$1")
    .replace(/^(accounts|labels)\.\d+$/, "$1");
  return { ...problem, field };
}

// CSV.

const split = (cell: string | undefined) =>
  (cell ?? "")
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "");

/** An id cell part: digits become a number; anything else stays as sent, for the schema to refuse by name. */
const idOrText = (part: string): number | string => (/^\d{1,15}$/.test(part) ? Number(part) : part);

const TRUE = new Set(["true", "1", "yes"]);
const FALSE = new Set(["", "false", "0", "no"]);

/** The post body a CSV row stands for (one content item), and the problems of cells no schema reads. */
function bodyOfCells(cells: Partial<Record<Column, string>>): { input: unknown; problems: Problem[] } {
  const problems: Problem[] = [];
  const body: Record<string, unknown> = {
    accounts: split(cells.accounts).map(idOrText),
    content: [{ text: cells.text ?? "", media: split(cells.media).map((m) => (isUrl(m) ? m : idOrText(m))) }],
  };
  const scheduled = cells.scheduled_at?.trim();
  if (scheduled) body.scheduled_at = scheduled;
  const labels = split(cells.labels);
  if (labels.length) body.labels = labels.map(idOrText);
  const queue = (cells.queue ?? "").trim().toLowerCase();
  if (TRUE.has(queue)) body.queue = true;
  else if (!FALSE.has(queue))
    problems.push({ field: "queue", code: "invalid", message: "The queue column must be true or false." });
  return { input: body, problems };
}

/**
 * Parses a CSV upload: a header row naming known columns (an unknown one is a 422 naming it, as an
 * unknown JSON field is), then one post per row; blank lines are skipped, a BOM is tolerated. A row
 * with more or fewer cells than the header is a problem of its own.
 */
export function parseCsv(text: string): Array<Omit<ImportRow, "problems"> & { problems: Problem[] }> {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ""), { skipEmptyLines: true });
  const [header = [], ...records] = parsed.data;
  const columns = header.map((name) => name.trim().toLowerCase());
  for (const name of columns)
    if (![...CSV_COLUMNS, ...DOWNLOAD_COLUMNS].includes(name)) throw unknownField(name || "(empty column)");
  return records.map((record, index) => {
    const cells: Partial<Record<Column, string>> = {};
    columns.forEach((name, i) => {
      if (record[i] !== undefined && !DOWNLOAD_COLUMNS.includes(name))
        cells[name as Column] = unescapeFormula(record[i]);
    });
    const { input, problems } = bodyOfCells(cells);
    if (record.length !== columns.length)
      problems.unshift({
        field: "row",
        code: "ragged_row",
        message: `The row has ${record.length} cells; the header has ${columns.length}.`,
      });
    return { row: index + 1, input, cells, problems };
  });
}

/**
 * A cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) is
 * written with an apostrophe before it (OWASP's CSV injection defence, papaparse's `escapeFormulae`), and
 * an upload reads such a cell without it, so the download round-trips.
 */
const FORMULA = /^'(?=[=+\-@\t\r])/;
const unescapeFormula = (cell: string) => cell.replace(FORMULA, "");

/** The rows with their problems as CSV, to fix in a spreadsheet and upload again. */
export function problemsCsv(rows: ImportRow[]): string {
  return Papa.unparse(
    {
      fields: ["row", ...CSV_COLUMNS, "problems"],
      data: rows.map((r) => [
        r.row,
        ...CSV_COLUMNS.map((column) => r.cells?.[column] ?? jsonCell(r.input, column)),
        r.problems.map((p) => `${p.field}: ${p.message}`).join("\n"),
      ]),
    },
    { escapeFormulae: true },
  );
}

/** A JSON row's value in a CSV column, so JSON uploads download alike. */
function jsonCell(input: unknown, column: Column): string {
  if (!isObject(input)) return "";
  const first = Array.isArray(input.content) && isObject(input.content[0]) ? input.content[0] : {};
  const value = column === "text" || column === "media" ? first[column] : input[column];
  if (Array.isArray(value)) return value.join(";");
  return value === undefined || value === null ? "" : String(value);
}
