// Messages of the publish queue: ids only. The consumer re-reads the post and publishes only rows that
// are still due, so a deleted post or a redelivered message publishes nothing.
export type PublishMessage = { post_id: number };

export async function enqueuePublish(queue: Queue, postIds: number[]): Promise<void> {
  for (let i = 0; i < postIds.length; i += 100) {
    await queue.sendBatch(
      postIds.slice(i, i + 100).map((id) => ({ body: { post_id: id } satisfies PublishMessage })),
    );
  }
}
