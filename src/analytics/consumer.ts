// SKELETON (issue 9): the `analytics-sync` queue consumer and its dead letters.
export async function consumeAnalyticsSync(batch: MessageBatch<unknown>, _env: Env, _ctx: ExecutionContext) {
  batch.retryAll();
}

export async function consumeAnalyticsSyncDeadLetters(
  batch: MessageBatch<unknown>,
  _env: Env,
  _ctx: ExecutionContext,
) {
  batch.retryAll();
}
