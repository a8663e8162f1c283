// SKELETON (issue 9): the `publish` queue consumer and its dead letters. Until the engine lands, every
// message is retried (never acknowledged and lost).
export async function consumePublish(batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext) {
  batch.retryAll();
}

export async function consumePublishDeadLetters(
  batch: MessageBatch<unknown>,
  _env: Env,
  _ctx: ExecutionContext,
) {
  batch.retryAll();
}
