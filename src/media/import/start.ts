// The request half of a URL import: every URL is resolved inside the request (so the answer lists
// every item), the items are created as processing, and one queue message per item hands the download
// to the consumer (consumer.ts).
import { insertWhere, runBatch } from "../../db/batch";
import type { Database } from "../../db/client";
import { type Media, media } from "../../db/schema";
import type { Tenant } from "../../db/tenancy";
import { invalidField } from "../../http/errors";
import type { ImportGuard } from "../../lib/url-guard";
import {
  MAX_FETCHES_PER_IMPORT,
  MAX_ITEMS_PER_REQUEST,
  type MediaLimits,
  quotaUsedUp,
  RESOLVE_BUDGET_MS,
} from "../config";
import { requireTarget } from "../queries";
import { fitsQuota } from "../quota";
import { newMediaKey } from "../upload";
import { type MediaImportMessage, markFailed } from "./consumer";
import { type Candidate, resolveAll } from "./resolve";

export type ImportRequest = {
  db: Database;
  queue: Queue<MediaImportMessage>;
  /** The SSRF guard: IMPORT_ALLOWED_PRIVATE_HOSTS and the name resolver. */
  guard: ImportGuard;
  limits: MediaLimits;
  tenant: Tenant;
  workspaceId: number;
  folderId: number | null;
  urls: string[];
};

/** Creates (and queues) one item per media found, in input order, without repeats; skipped URLs give none. */
export async function startImport(request: ImportRequest): Promise<Media[]> {
  const byUrl = await startImportByUrl(request);
  return [...new Map(byUrl.flat().map((row) => [row.id, row])).values()].sort((a, b) => a.id - b.id);
}

/**
 * startImport, answering the items of each input URL (in the inputs' order): a page's items in document
 * order; an item two inputs lead to is created once and listed under both. A bulk import maps its rows'
 * URLs to media ids with it.
 */
export async function startImportByUrl(request: ImportRequest): Promise<Media[][]> {
  const { db, tenant, workspaceId, folderId, limits } = request;
  const { usage } = await requireTarget(db, tenant, workspaceId, folderId);
  if (usage >= limits.quota) throw invalidField("workspace_id", quotaUsedUp(limits));

  const resolved = await resolveAll(request.urls, {
    guard: request.guard,
    limits,
    stopAt: Date.now() + RESOLVE_BUDGET_MS,
    fetches: { left: MAX_FETCHES_PER_IMPORT },
  });
  // Announced sizes count against the quota now (each insert checks its own against what the workspace
  // holds at that moment, so parallel imports cannot all fit into the same room); the consumer checks
  // the real ones before the bytes move. The usage read above only skips early what cannot fit.
  let planned = usage;
  const candidates = new Map<string, Candidate>();
  for (const found of resolved.flat()) {
    if (candidates.size >= MAX_ITEMS_PER_REQUEST || candidates.has(found.url)) continue;
    if (planned + found.size > limits.quota) continue;
    planned += found.size;
    candidates.set(found.url, found);
  }
  if (candidates.size === 0) return resolved.map(() => []);

  const now = new Date();
  // One batch: one transaction, each insert seeing the ones before it; ids grow in insertion order.
  const inserted = await runBatch(
    db,
    [...candidates.values()].map((found) =>
      insertWhere(
        db,
        media,
        {
          workspaceId,
          folderId,
          name: found.name,
          r2Key: newMediaKey(),
          mimeType: found.mime,
          type: found.kind,
          size: found.size,
          state: "processing",
          progress: 0,
          sourceUrl: found.url,
          createdAt: now,
          updatedAt: now,
        },
        fitsQuota(workspaceId, found.size, limits.quota, now.getTime()),
      ).returning(),
    ),
  );
  const rows = inserted.flat().sort((a, b) => a.id - b.id);
  if (rows.length === 0) return resolved.map(() => []);
  try {
    // At most MAX_ITEMS_PER_REQUEST (100) messages: one sendBatch takes them all.
    await request.queue.sendBatch(rows.map((row) => ({ body: { media_id: row.id } })));
  } catch (error) {
    // Items no message will ever complete must not stay processing.
    await Promise.all(rows.map((row) => markFailed(db, row.id, "could not be queued"))).catch(() => {});
    throw error;
  }
  const bySource = new Map(rows.map((row) => [row.sourceUrl, row]));
  return resolved.map((found) => [
    ...new Set(found.map((c) => bySource.get(c.url)).filter((row): row is Media => row !== undefined)),
  ]);
}
