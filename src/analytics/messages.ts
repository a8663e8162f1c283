// Messages of the analytics-sync queue: a platform row's id. The consumer re-reads the row and syncs
// only a row that is still PUBLISHED, so a redelivered or stale message is harmless.
export type AnalyticsSyncMessage = { row_id: number };

/** Reads a message body; null for anything that is not `{row_id: <positive integer>}`. */
export function parseSyncMessage(body: unknown): AnalyticsSyncMessage | null {
  const rowId = (body as { row_id?: unknown } | null)?.row_id;
  return typeof rowId === "number" && Number.isSafeInteger(rowId) && rowId > 0 ? { row_id: rowId } : null;
}

/** Enqueues one sync job per row, 100 per send (the queue's batch limit). */
export async function enqueueSync(queue: Queue, rowIds: readonly number[]): Promise<void> {
  for (let i = 0; i < rowIds.length; i += 100) {
    await queue.sendBatch(
      rowIds.slice(i, i + 100).map((id) => ({ body: { row_id: id } satisfies AnalyticsSyncMessage })),
    );
  }
}
