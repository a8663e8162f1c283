// The request half of a URL import: every URL is resolved inside the request (so the answer lists
// every item), the items are created as processing, and one queue message per item hands the download
// to the consumer (consumer.ts).
import type { Database } from "../../db/client";
import type { Media } from "../../db/schema";
import { invalidField } from "../../http/errors";
import type { ImportGuard } from "../../lib/url-guard";
import {
  MAX_FETCHES_PER_IMPORT,
  MAX_ITEMS_PER_REQUEST,
  type MediaLimits,
  quotaUsedUp,
  RESOLVE_BUDGET_MS,
} from "../config";
import { insertMedia, requireTarget } from "../queries";
import { newMediaKey } from "../upload";
import { type MediaImportMessage, markFailed } from "./consumer";
import { type Candidate, resolveAll } from "./resolve";

export type ImportRequest = {
  db: Database;
  queue: Queue<MediaImportMessage>;
  /** The SSRF guard: IMPORT_ALLOWED_PRIVATE_HOSTS and the name resolver. */
  guard: ImportGuard;
  limits: MediaLimits;
  userId: number;
  workspaceId: number;
  folderId: number | null;
  urls: string[];
};

/** Creates (and queues) one item per media found, in input order, without repeats; skipped URLs give none. */
export async function startImport(request: ImportRequest): Promise<Media[]> {
  const { db, userId, workspaceId, folderId, limits } = request;
  const { usage } = await requireTarget(db, userId, workspaceId, folderId);
  if (usage >= limits.quota) throw invalidField("workspace_id", quotaUsedUp(limits));

  const resolved = await resolveAll(request.urls, {
    guard: request.guard,
    limits,
    stopAt: Date.now() + RESOLVE_BUDGET_MS,
    fetches: { left: MAX_FETCHES_PER_IMPORT },
  });
  // Announced sizes count against the quota now; the consumer checks the real ones as bytes arrive.
  let planned = usage;
  const candidates = new Map<string, Candidate>();
  for (const found of resolved.flat()) {
    if (candidates.size >= MAX_ITEMS_PER_REQUEST || candidates.has(found.url)) continue;
    if (planned + found.size > limits.quota) continue;
    planned += found.size;
    candidates.set(found.url, found);
  }
  if (candidates.size === 0) return [];

  const rows = await insertMedia(
    db,
    [...candidates.values()].map((found) => ({
      workspaceId,
      folderId,
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
    // At most MAX_ITEMS_PER_REQUEST (100) messages: one sendBatch takes them all.
    await request.queue.sendBatch(rows.map((row) => ({ body: { media_id: row.id } })));
  } catch (error) {
    // Items no message will ever complete must not stay processing.
    await Promise.all(rows.map((row) => markFailed(db, row.id, "could not be queued"))).catch(() => {});
    throw error;
  }
  return rows;
}
