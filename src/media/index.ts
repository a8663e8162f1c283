// The media library: URL import (bytes moved by the media-import queue), file upload, list, delete.
// Every endpoint needs the `posts` ability: media exist to be attached to posts, and folders, their
// sibling, are named for `posts`.
import type { ApiEnv } from "../http/env";
import { conflict, notFound } from "../http/errors";
import { jsonBody, jsonContent } from "../http/openapi";
import { nextCursorAfter, paginated } from "../http/pagination";
import { apiRoutes } from "../http/route";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams, messageSchema, paginated as pageOf } from "../lib/schemas";
import { importGuard, MAX_REDIRECTS } from "../lib/url-guard";
import {
  DEFAULT_LIMITS,
  MAX_FETCHES_PER_IMPORT,
  MAX_ITEMS_PER_REQUEST,
  MAX_MEDIA_PER_PAGE,
  mediaLimits,
  RESOLVE_BUDGET_MS,
} from "./config";
import { startImport } from "./import/start";
import { presentMediaList } from "./present";
import { deleteMediaOfUser, mediaPage } from "./queries";
import {
  importedMediaSchema,
  importMediaBody,
  listMediaQuery,
  mediaItemSchema,
  uploadFormSchema,
} from "./schemas";
import { SUPPORTED_TYPES } from "./sniff";
import { MAX_FIELD_BYTES, receiveUpload } from "./upload";

const route = apiRoutes("posts");

const tags = ["Media"];

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
const CAPS = `Accepted: ${SUPPORTED_TYPES}; the first bytes decide, whatever the name or declared type says. At most ${mib(DEFAULT_LIMITS.image)} per image and ${mib(DEFAULT_LIMITS.video)} per video unless the operator configured other caps.`;

export const mediaRouter = createRouter<ApiEnv>()
  .openapi(
    route({
      method: "post",
      operationId: "importMedia",
      path: "/upload/url",
      idempotent: true,
      tags,
      summary: "Import media from URLs",
      description: [
        `Each URL is a direct image or video link, or a page: a page gives one item per Open Graph / Twitter Card media tag (\`og:image\`, \`og:video\`, \`twitter:image\`, …), at most ${MAX_MEDIA_PER_PAGE}. Redirects are followed (at most ${MAX_REDIRECTS}). ${CAPS}`,
        `URLs that cannot be used are skipped, not refused: private or local addresses (names are resolved first), unreachable origins, anything that is not an image or a video, media over the cap or over what is left of the workspace's storage quota, and inputs not reached within the request's budget (${RESOLVE_BUDGET_MS / 1000} s and ${MAX_FETCHES_PER_IMPORT} fetches in all, redirect hops included). A workspace whose quota is used up answers 422. The answer lists the items created (at most ${MAX_ITEMS_PER_REQUEST}, a URL named twice counts once), in input order; \`count_stored\` is 0 when nothing could be used.`,
        "The items come back with `is_processing: true` and `progress: 0`: the bytes are downloaded in the background. Once stored, an item has `is_processing: false` and `progress: 100`; until then its `url` answers 409. A download that fails for good leaves `is_processing: false` with `progress: 0`, and its `url` answers 404.",
      ].join("\n\n"),
      request: { body: jsonBody(importMediaBody) },
      responses: { 200: jsonContent(importedMediaSchema, "The items created, still processing.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const body = c.req.valid("json");
      const rows = await startImport({
        db,
        queue: c.env.MEDIA_IMPORT_QUEUE,
        guard: importGuard(c.env),
        limits: mediaLimits(c.env),
        tenant: principal,
        workspaceId: body.workspace_id,
        folderId: body.folder_id ?? null,
        urls: body.urls,
      });
      const items = await presentMediaList(c.env, publicOrigin(c.env, c.req.url), rows);
      return c.json({ media: items, count_stored: items.length }, 200);
    },
  )
  .openapi(
    route({
      method: "post",
      operationId: "uploadMedia",
      path: "/upload",
      idempotent: true,
      tags,
      summary: "Upload a file",
      description: [
        `A \`multipart/form-data\` body with the \`workspace_id\` (and optionally \`folder_id\`) BEFORE one \`file\`, and optionally \`alt\` anywhere; each text field at most ${MAX_FIELD_BYTES} bytes. The workspace, the folder and the workspace's storage quota are checked before a byte of the file is stored, so a file that comes before \`workspace_id\` is a 422. ${CAPS} A file over its cap, or over what is left of the workspace's quota, is a 422 and nothing is kept.`,
        "The item is stored at once: `is_processing: false`, `progress: 100`. A body sent as anything but multipart/form-data is a 415, a malformed one a 400.",
      ].join("\n\n"),
      request: {
        // A plain schema, so no validator reads the body: receiveUpload streams it into R2.
        body: { content: { "multipart/form-data": { schema: uploadFormSchema } }, required: true },
      },
      responses: { 201: jsonContent(mediaItemSchema, "The item, ready.") },
      errors: [404],
    }),
    async (c) => {
      const row = await receiveUpload({
        contentType: c.req.header("content-type"),
        contentLength: c.req.header("content-length"),
        body: c.req.raw.body,
        db: c.var.db,
        bucket: c.env.MEDIA,
        limits: mediaLimits(c.env),
        tenant: c.var.principal,
      });
      const [item] = await presentMediaList(c.env, publicOrigin(c.env, c.req.url), [row]);
      return c.json(item!, 201);
    },
  )
  .openapi(
    route({
      method: "get",
      operationId: "listMedia",
      path: "/",
      tags,
      summary: "List media",
      description:
        "The items of every accessible workspace, or of the workspace and folder named, newest first, processing and failed imports included. Each `url` is signed afresh.",
      request: { query: listMediaQuery },
      responses: { 200: jsonContent(pageOf(mediaItemSchema), "One page of items.") },
      errors: [404],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const query = c.req.valid("query");
      const { rows, total } = await mediaPage(db, principal, {
        workspaceId: query.workspace_id,
        folderId: query.folder_id,
        page: query.page,
        perPage: query.per_page,
        beforeId: query.before_id,
      });
      const origin = publicOrigin(c.env, c.req.url);
      const items = await presentMediaList(c.env, origin, rows);
      const page = { requestUrl: c.req.url, origin, page: query.page, perPage: query.per_page };
      return c.json(paginated(page, items, total, nextCursorAfter(rows.at(-1))), 200);
    },
  )
  .openapi(
    route({
      method: "delete",
      operationId: "deleteMedia",
      earlyReads: true,
      path: "/{id}",
      tags,
      summary: "Delete a media item",
      description:
        "Deletes the item and its bytes; its links stop working. An import still processing is deleted too (its download leaves nothing behind). A post that published the item keeps showing it in `content[].media` (its id, name, type and size; its `url` no longer serves). Drafts and failed posts that published nothing lose it. While a post that is not yet published uses it (SCHEDULED, including a repeatable post waiting for its next occurrence, or PUBLISHING), the answer is a 409 and nothing changes: remove it from those posts (or delete them) first.",
      request: { params: idParams },
      responses: { 200: jsonContent(messageSchema, "Deleted.") },
      errors: [404, 409],
    }),
    async (c) => {
      const { db, principal } = c.var;
      const { id } = c.req.valid("param");
      const deleted = await deleteMediaOfUser(db, principal, id);
      if (!deleted) throw notFound("Media");
      if (deleted === "in_use")
        throw conflict(
          "The media item is used by a post waiting for approval, scheduled or publishing; remove it from that post first.",
        );
      // An import still running finds its row gone and removes what it wrote (see import/consumer.ts).
      await c.env.MEDIA.delete(deleted.r2Key);
      return c.json({ message: "Media deleted successfully." }, 200);
    },
  );
