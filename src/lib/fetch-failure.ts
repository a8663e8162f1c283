// Why fetching (and storing) what a URL names failed: the private-address guard's refusals, DNS and
// network faults, the origin's answer. Permanent failures are final (a media import marks its item
// failed at once); transient ones (network faults, 5xx, timeouts, storage hiccups) are worth retrying.
export class FetchFailure extends Error {
  readonly permanent: boolean;

  constructor(message: string, permanent: boolean) {
    super(message);
    this.name = "FetchFailure";
    this.permanent = permanent;
  }
}

/** An HTTP status of the origin as a failure: 408, 425, 429 and 5xx are worth retrying, other 4xx not. */
export function statusFailure(status: number): FetchFailure {
  const transient = status >= 500 || status === 408 || status === 425 || status === 429;
  return new FetchFailure(`origin answered ${status}`, !transient);
}
