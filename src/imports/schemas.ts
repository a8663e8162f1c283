// The imports API's schemas. The rows themselves are not validated here: each is checked as a post
// (rows.ts), so one bad row is a problem of that row, never a 422 of the whole upload.
import { z } from "zod";
import { bodyId, textId } from "../lib/schemas";
import { MAX_ROWS } from "./rows";

export const importJsonBody = z
  .strictObject({
    workspace_id: bodyId(),
    posts: z
      .array(z.unknown())
      .min(1)
      .max(MAX_ROWS)
      .meta({
        description: `The posts, each the body of \`POST /api/v1/posts\` without \`workspace_id\`; at most ${MAX_ROWS}. A media item may also be an http(s) URL, checked as the media URL import checks it and imported by the commit (its items, in order, take its place).`,
      }),
    commit: z.boolean().optional().meta({
      description:
        "`true`: commit the valid rows in the same request (as `POST /api/v1/imports/{id}/commit`).",
    }),
  })
  .meta({
    id: "CreateImportRequest",
    example: { workspace_id: 1, posts: [{ accounts: [1], content: [{ text: "Hello", media: [] }] }] },
  });

export const importCsvBody = z.string().meta({
  id: "CreateImportCsv",
  description:
    "A CSV file: a header row of columns among `accounts`, `text`, `scheduled_at`, `media`, `labels`, `queue`, then one post per row. Lists (`accounts`, `media`, `labels`) are joined by `;`.",
  example: "accounts,text,scheduled_at\n1;2,Hello,2030-01-01T09:00:00Z\n",
});

export const importQuery = z.strictObject({
  workspace_id: textId()
    .optional()
    .meta({ description: "The workspace of a CSV upload (JSON names it in the body)." }),
});

export const importParams = z.object({
  id: z
    .string()
    .max(100)
    .meta({ description: "The import's id (`imp_…`).", example: "imp_0123456789abcdef0123456789abcdef" }),
});

const problemSchema = z
  .strictObject({
    field: z.string().meta({
      description:
        "Where in the row: the path in the post body (`content.0.text`, `accounts.1`, `scheduled_at`), or for CSV the column (`text`, `accounts`); `row` for the row as a whole.",
      example: "content.0.text",
    }),
    code: z.string().meta({
      description:
        "`required`, `unknown_field`, `invalid_type`, `not_found` (an id that is not of the workspace), `invalid_date`, `queue`, `text_too_long`, `platform_rule`, `account_expired`, `platform_not_configured`, `media_url_refused`, `media_import_failed` (at commit: a media URL gave no item, or its download failed), `ragged_row`, `refused_at_commit`, or `invalid`.",
      example: "text_too_long",
    }),
    message: z.string(),
  })
  .meta({ id: "ImportProblem" });

const rowSchema = z
  .strictObject({
    row: z.int().meta({ description: "1 for the first post (the first line after a CSV's header)." }),
    valid: z.boolean(),
    problems: z.array(problemSchema),
  })
  .meta({ id: "ImportRow" });

const mediaProgressSchema = z
  .strictObject({
    ready: z.int(),
    failed: z.int().meta({ description: "Items whose download failed, and URLs that gave no item." }),
    pending: z.int().meta({ description: "Items still downloading." }),
  })
  .meta({
    id: "ImportMediaProgress",
    description:
      "Only for an import with media URLs, once a commit started their imports: its items by state.",
  });

const STATUS =
  "`validated` until committed; `importing_media` while the media of its URL rows download (send the commit again: it creates the posts once every item is ready or failed); `committing` while a commit runs, or while rows remain (a commit creates at most 300 rows: send it again); then `committed`.";

const createdSchema = z.strictObject({ row: z.int(), post_id: z.int() }).meta({ id: "ImportCreatedPost" });

export const importSchema = z
  .strictObject({
    id: z.string(),
    workspace_id: z.int(),
    status: z.enum(["validated", "committing", "importing_media", "committed"]).meta({ description: STATUS }),
    total: z.int(),
    valid: z.int(),
    invalid: z.int(),
    rows: z.array(rowSchema),
    created: z.array(createdSchema).meta({ description: "The posts the commit created, in row order." }),
    media: mediaProgressSchema.optional(),
  })
  .meta({ id: "Import" });

export const commitSchema = z
  .strictObject({
    id: z.string(),
    status: z.enum(["committing", "importing_media", "committed"]).meta({
      description:
        "`importing_media` while the media of its URL rows download, `committing` while rows remain (a commit creates at most 300 rows): either way, send the commit again (polling `GET /api/v1/imports/{id}` shows the same progress).",
    }),
    remaining: z.int().meta({ description: "Valid rows not created yet." }),
    created: z.array(createdSchema),
    failed: z.array(z.strictObject({ row: z.int(), problems: z.array(problemSchema) })).meta({
      description: "Rows valid at upload that the commit refused (their problems now).",
    }),
    media: mediaProgressSchema.optional(),
  })
  .meta({ id: "ImportCommit" });

export type ImportAnswer = z.output<typeof importSchema>;
