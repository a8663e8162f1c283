// The media library: URL import (bytes moved by the media-import queue), file upload, list, delete.
// Every endpoint needs the `posts` ability (the spec leaves the import's ability open; media exist to
// be attached to posts, and folders, their sibling, are named for `posts`).
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { media, workspaces } from "../db/schema";
import { requireAbility } from "../http/abilities";
import type { ApiEnv } from "../http/env";
import { notFound } from "../http/errors";
import { idPath, validate } from "../http/legacy";
import { paginated } from "../http/pagination";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { bodyId, pageQuery, textId } from "../lib/schemas";
import { inUserWorkspaces } from "../workspaces/queries";
import { MAX_ITEMS_PER_REQUEST, mediaLimits } from "./config";
import { markFailed } from "./import/consumer";
import { type Candidate, resolveAll } from "./import/resolve";
import { MAX_URL_LENGTH, parseAllowList } from "./import/url-guard";
import { presentMediaList } from "./present";
import { insertMedia, requireTarget } from "./queries";
import { newMediaKey, receiveUpload } from "./upload";

/** Time the request spends resolving URLs and pages; inputs not started by then are skipped. */
const RESOLVE_BUDGET_MS = 25_000;

const importBody = z.object({
  workspace_id: bodyId(),
  urls: z.array(z.string().max(MAX_URL_LENGTH)).min(1).max(50),
  folder_id: bodyId().nullish(),
});

const listQuery = z.object({
  workspace_id: textId().optional(),
  folder_id: textId().optional(),
  ...pageQuery(),
});

export const mediaRouter = createRouter<ApiEnv>()
  .post("/upload/url", requireAbility("posts"), validate("json", importBody), async (c) => {
    const { db, principal } = c.var;
    const body = c.req.valid("json");
    await requireTarget(db, principal.userId, body.workspace_id, body.folder_id);

    const resolved = await resolveAll(body.urls, {
      allow: parseAllowList(c.env.IMPORT_ALLOWED_PRIVATE_HOSTS),
      limits: mediaLimits(c.env),
      stopAt: Date.now() + RESOLVE_BUDGET_MS,
    });
    const candidates = new Map<string, Candidate>();
    for (const found of resolved.flat()) {
      if (candidates.size < MAX_ITEMS_PER_REQUEST && !candidates.has(found.url))
        candidates.set(found.url, found);
    }
    if (candidates.size === 0) return c.json({ media: [], count_stored: 0 });

    const rows = await insertMedia(
      db,
      [...candidates.values()].map((found) => ({
        workspaceId: body.workspace_id,
        folderId: body.folder_id ?? null,
        name: found.name,
        r2Key: newMediaKey(),
        mimeType: found.mime,
        type: found.kind,
        size: found.size,
        state: "processing" as const,
        progress: 0,
        sourceUrl: found.url,
      })),
    );
    try {
      await c.env.MEDIA_IMPORT_QUEUE.sendBatch(rows.map((row) => ({ body: { media_id: row.id } })));
    } catch (error) {
      await Promise.all(rows.map((row) => markFailed(db, row.id, "could not be queued"))).catch(() => {});
      throw error;
    }
    const items = await presentMediaList(c.env, publicOrigin(c.env, c.req.url), rows);
    return c.json({ media: items, count_stored: items.length });
  })
  .post("/upload", requireAbility("posts"), async (c) => {
    const row = await receiveUpload({
      contentType: c.req.header("content-type"),
      body: c.req.raw.body,
      env: c.env,
      db: c.var.db,
      userId: c.var.principal.userId,
    });
    const [item] = await presentMediaList(c.env, publicOrigin(c.env, c.req.url), [row]);
    return c.json(item, 201);
  })
  .get("/", requireAbility("posts"), validate("query", listQuery), async (c) => {
    const { db, principal } = c.var;
    const query = c.req.valid("query");
    const scope = and(
      inUserWorkspaces(db, media.workspaceId, principal.userId),
      query.workspace_id ? eq(media.workspaceId, query.workspace_id) : undefined,
      query.folder_id ? eq(media.folderId, query.folder_id) : undefined,
    );
    const [totals, rows, workspace] = await db.batch([
      db.select({ total: count() }).from(media).where(scope),
      db
        .select()
        .from(media)
        .where(scope)
        .orderBy(desc(media.id))
        .limit(query.per_page)
        .offset((query.page - 1) * query.per_page),
      db
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(
          and(
            inArray(workspaces.id, query.workspace_id ? [query.workspace_id] : []),
            inUserWorkspaces(db, workspaces.id, principal.userId),
          ),
        ),
    ]);
    if (query.workspace_id && workspace.length === 0) throw notFound("Workspace");
    const origin = publicOrigin(c.env, c.req.url);
    return c.json(
      paginated(
        { requestUrl: c.req.url, origin, page: query.page, perPage: query.per_page },
        await presentMediaList(c.env, origin, rows),
        totals[0]?.total ?? 0,
      ),
    );
  })
  .delete("/:id", requireAbility("posts"), idPath(), async (c) => {
    const { db, principal } = c.var;
    const { id } = c.req.valid("param");
    const deleted = await db
      .delete(media)
      .where(and(eq(media.id, id), inUserWorkspaces(db, media.workspaceId, principal.userId)))
      .returning({ r2Key: media.r2Key });
    if (deleted.length === 0) throw notFound("Media");
    // An import still running finds its row gone and removes what it wrote (see import-queue.ts).
    await c.env.MEDIA.delete(deleted[0]!.r2Key);
    return c.json({ message: "Media deleted successfully." });
  });
