// Every call to a platform goes through callPlatform, and every way it can fail is classified here, once,
// for all adapters: the engine decides to retry, wait, reconnect, reconcile or give up from `kind` alone.
import { field, nonEmpty } from "./json";
import { type FailureKind, type Fetch, PlatformError } from "./types";

/** Outbound calls to a platform give up after this long. */
export const PLATFORM_TIMEOUT_MS = 10_000;
/**
 * A request that sends a file's bytes (an upload PUT, a chunk) gives up after this long: a 32 MiB chunk
 * at a slow 1 MB/s takes half a minute, far more than an ordinary call may.
 */
export const UPLOAD_TIMEOUT_MS = 120_000;
export const DEFAULT_TIMEOUTS = { call: PLATFORM_TIMEOUT_MS, upload: UPLOAD_TIMEOUT_MS } as const;
/** What a 429 without a usable Retry-After asks us to wait. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
/** The platform's own error message is quoted up to this many characters. */
export const PLATFORM_MESSAGE_MAX = 500;

export type CallOptions = {
  /**
   * Whether a failure's message quotes the platform's own error text. Publishing wants it (the row's
   * error tells the user why a post was refused); the OAuth steps do not, as their messages go to logs
   * and a token endpoint's text can echo what it was sent.
   */
  quoteErrors?: boolean;
  /**
   * The platform's own reading of a failed answer, before the common one: a quota named in a 403, an
   * error sent with a 200, a content code that means "try later". Undefined falls through.
   */
  classify?: (response: Response, body: unknown) => PlatformError | undefined;
  /** This call's timeout in ms (default PLATFORM_TIMEOUT_MS; uploads take the context's `upload`). */
  timeoutMs?: number;
};

/** A platform's 2xx answer: its JSON body (null when the body is empty) and its headers. */
export type PlatformAnswer = { status: number; headers: Headers; body: unknown };

/** Methods that change nothing on the platform: a lost answer to them can simply be asked again. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Calls a platform and reads its JSON answer; every failure is a classified PlatformError. */
export async function callPlatform(
  fetcher: Fetch,
  what: string,
  url: string,
  init: RequestInit,
  options: CallOptions = {},
): Promise<unknown> {
  return (await platformCall(fetcher, what, url, init, options)).body;
}

/**
 * callPlatform with the answer's status and headers (an upload URL in `Location`, a created id in a
 * header); an empty 2xx body (201, 204) reads as null.
 */
export async function platformCall(
  fetcher: Fetch,
  what: string,
  url: string,
  init: RequestInit,
  options: CallOptions = {},
): Promise<PlatformAnswer> {
  const safe = SAFE_METHODS.has((init.method ?? "GET").toUpperCase());
  let response: Response;
  let body: string;
  try {
    response = await fetcher(url, {
      ...init,
      signal: AbortSignal.timeout(options.timeoutMs ?? PLATFORM_TIMEOUT_MS),
    });
  } catch (error) {
    throw thrownFailure(what, error, safe);
  }
  try {
    body = await response.text();
  } catch (error) {
    // The status line arrived, the body did not: an error status still says what happened; a 2xx
    // whose body was cut is an answer lost after the platform acted.
    if (!response.ok) throw statusFailure(what, response, "", options);
    throw thrownFailure(what, error, safe);
  }
  if (!response.ok)
    throw options.classify?.(response, parseJson(body)) ?? statusFailure(what, response, body, options);
  const answer = { status: response.status, headers: response.headers };
  if (body.trim() === "") return { ...answer, body: null };
  try {
    const parsed = JSON.parse(body) as unknown;
    const refused = options.classify?.(response, parsed);
    if (refused) throw refused;
    return { ...answer, body: parsed };
  } catch (error) {
    if (error instanceof PlatformError) throw error;
    // A 2xx is an acceptance: if the request changed something, it did, whatever the body says.
    throw new PlatformError(`${what}: the answer is not JSON`, {
      kind: safe ? "transient" : "unknown_outcome",
      code: "invalid_response",
    });
  }
}

/** A fetch or body read that threw: a timeout or a network fault, before or after the platform acted. */
export function thrownFailure(what: string, error: unknown, safe: boolean): PlatformError {
  const name = error instanceof Error ? error.name : "Error";
  const timedOut = name === "TimeoutError" || name === "AbortError";
  const kind: FailureKind = safe ? "transient" : "unknown_outcome";
  return new PlatformError(`${what}: the request failed (${timedOut ? "timeout" : name})`, {
    kind,
    code: timedOut ? "timeout" : "network_error",
  });
}

/** An HTTP error status, classified; the platform's own message and code are kept when it gives them. */
export function statusFailure(
  what: string,
  response: Response,
  body: string,
  options: CallOptions = {},
): PlatformError {
  const status = response.status;
  const parsed = parseJson(body);
  const quoted = options.quoteErrors === false ? undefined : platformMessage(parsed);
  const message = `${what}: HTTP ${status}${quoted ? `: ${quoted}` : ""}`;
  const named = platformCode(parsed);
  if (status === 429) {
    return new PlatformError(message, {
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: rateLimitReset(response.headers),
    });
  }
  if (status >= 500) return new PlatformError(message, { kind: "transient", code: "server_error" });
  // 408: the platform gave up waiting for the request, so it did not act on it.
  if (status === 408) return new PlatformError(message, { kind: "transient", code: "timeout" });
  if (status === 401) return new PlatformError(message, { kind: "auth", code: named ?? "unauthorized" });
  if (status >= 400) {
    return new PlatformError(message, { kind: "permanent", code: named ?? "content_rejected" });
  }
  // A redirect or an informational status where an answer was expected.
  return new PlatformError(message, { kind: "transient", code: "invalid_response" });
}

/**
 * Seconds until a 429 may be retried: Retry-After, else the reset time platforms send in their rate
 * limit headers (X's `x-rate-limit-reset`, epoch seconds), else 60.
 */
export function rateLimitReset(headers: Headers, now = Date.now()): number {
  const retryAfter = headers.get("retry-after");
  if (retryAfter !== null) return retryAfterSeconds(retryAfter, now);
  const reset = Number(headers.get("x-rate-limit-reset") ?? headers.get("x-ratelimit-reset") ?? Number.NaN);
  if (Number.isFinite(reset) && reset > 1e9) return Math.max(0, Math.ceil(reset - now / 1000));
  return DEFAULT_RETRY_AFTER_SECONDS;
}

/** Seconds to wait from a Retry-After header: delay-seconds or an HTTP date; 60 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names its day and month ("Wed, 21 Oct 2015 07:28:00 GMT"); bare numbers are not dates.
  const at = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return DEFAULT_RETRY_AFTER_SECONDS;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * A URL fit for a log line or an error message: its origin and path, and `?…` where its query was (a
 * query can carry a token, a code or a client secret). Userinfo and fragment are dropped too.
 */
export function redactUrl(url: string): string {
  const queried = /^[^#]*\?/.test(url);
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const base =
    parsed && (parsed.protocol === "https:" || parsed.protocol === "http:")
      ? `${parsed.origin}${parsed.pathname}`
      : url.split(/[?#]/, 1)[0]!;
  return queried ? `${base}?…` : base;
}

const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;
const SECRET_PARAMETER =
  /\b(access_token|refresh_token|client_secret|code|code_verifier|fb_exchange_token|input_token)=[^&\s"'<>]+/gi;

/** Text a platform sent back, with the URLs and secret parameters it may echo redacted. */
export const redactText = (text: string) =>
  text.replace(URL_IN_TEXT, (url) => redactUrl(url)).replace(SECRET_PARAMETER, "$1=…");

/**
 * The error text platforms put in the usual places, redacted (platforms echo the request URL or its
 * parameters in their errors) and cut to PLATFORM_MESSAGE_MAX characters.
 */
export function platformMessage(body: unknown): string | undefined {
  const error = field(body, "error");
  const firstError = field(field(body, "errors"), 0);
  const message =
    nonEmpty(field(error, "message")) ??
    nonEmpty(field(body, "message")) ??
    nonEmpty(field(body, "error_description")) ??
    nonEmpty(field(body, "detail")) ??
    nonEmpty(field(body, "title")) ??
    nonEmpty(field(firstError, "message"));
  if (!message) return undefined;
  const redacted = redactText(message);
  const characters = [...redacted];
  return characters.length > PLATFORM_MESSAGE_MAX
    ? `${characters.slice(0, PLATFORM_MESSAGE_MAX - 1).join("")}…`
    : redacted;
}

/** A machine code the platform names (`error.code`, `code`, an OAuth `error`); numeric codes are not kept. */
function platformCode(body: unknown): string | undefined {
  const error = field(body, "error");
  for (const candidate of [field(error, "code"), field(body, "code"), error]) {
    if (typeof candidate === "string" && /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/.test(candidate)) return candidate;
  }
  return undefined;
}
