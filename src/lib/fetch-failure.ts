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

/** What a network fault of `fetch` was, in the service's own words (webhook deliveries' log). */
export type NetworkFault = "timeout" | "dns_failed" | "tls_failed" | "connection_failed";

/**
 * Classifies what `fetch` threw, from its name and wording: the runtime's texts (workerd's "Network
 * connection lost.", "internal error; reference = …") are read here and never passed on.
 */
export function networkFault(error: unknown): NetworkFault {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name === "TimeoutError" || name === "AbortError") return "timeout";
  const text = typeof message === "string" ? message : "";
  if (/\b(dns|getaddrinfo|enotfound|eai_again|name not resolved)\b/i.test(text)) return "dns_failed";
  if (/\b(tls|ssl|certificate|handshake)\b/i.test(text)) return "tls_failed";
  return "connection_failed";
}
