// Why an import could not store a media item. Permanent failures mark the item failed at once;
// transient ones (network faults, 5xx, timeouts, storage hiccups) are retried by the queue.
export class ImportFailure extends Error {
  readonly permanent: boolean;

  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = "ImportFailure";
    this.permanent = permanent;
  }
}

/** An HTTP status of the origin as a failure: 408, 425, 429 and 5xx are worth retrying, other 4xx not. */
export function statusFailure(status: number): ImportFailure {
  const transient = status >= 500 || status === 408 || status === 425 || status === 429;
  return new ImportFailure(`origin answered ${status}`, !transient);
}
