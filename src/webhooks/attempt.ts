// One delivery attempt: the target checked and resolved again (src/webhooks/target.ts), the signed POST
// with a timeout and redirects left unfollowed, and what came of it: the status, the time it took, an
// error, and a short excerpt of the answer when it is plain text or JSON, what a receiver writes to say
// why (the rest of the body is never read). Anything else (an HTML error page, an image: what a web
// server or another service at that URL answers) is not quoted, so the log cannot be used to read what
// other services answer to a POST.
import { networkFault } from "../lib/fetch-failure";
import { ATTEMPT_TIMEOUT_MS, EXCERPT_CHARS } from "./catalog";
import { signedHeaders } from "./sign";
import { resolveTarget, type TargetEnv } from "./target";

/**
 * Every way an attempt fails, as the deliveries log names it (`error_code`), with its `error` message:
 * fixed for the network faults, whatever the runtime threw; the guard's reason for a refused target; the
 * receiver's status for an answer. The API document lists the codes as an enum (schemas.ts).
 */
export const DELIVERY_FAILURES = {
  timeout: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`,
  connection_failed: "could not connect: the connection was refused, failed or was cut off",
  dns_failed: "could not connect: the host name did not resolve",
  tls_failed: "could not connect: the TLS handshake failed (certificate or protocol)",
  invalid_target:
    "refused URL: the target is not a public address on port 443 or 80 (the reason follows); nothing was sent",
  redirect: "HTTP 3xx: redirects are not followed",
  http_status: "HTTP <status>, and `(<type> answer not quoted)` when the answer was neither text nor JSON",
} as const;

export type DeliveryFailure = keyof typeof DELIVERY_FAILURES;

export const DELIVERY_FAILURE_CODES = Object.keys(DELIVERY_FAILURES) as [
  DeliveryFailure,
  ...DeliveryFailure[],
];

export type AttemptResult = {
  ok: boolean;
  status: number | null;
  durationMs: number;
  errorCode: DeliveryFailure | null;
  error: string | null;
  excerpt: string | null;
};

export const USER_AGENT = "social-publishing-api-webhooks/1";

/** The answer types quoted in the log: plain text and JSON. */
export function quotable(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return (
    type === "text/plain" || type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)
  );
}

/** At most EXCERPT_CHARS characters of the body, reading no more than a few chunks of it. */
async function excerptOf(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut off midway still has its start.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const trimmed = text.slice(0, EXCERPT_CHARS);
  return trimmed.length > 0 ? trimmed : null;
}

/** The media type alone, at most 100 characters of it, for the error's wording. */
const mediaType = (contentType: string) =>
  contentType
    .split(";")[0]!
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9./+-]/g, "")
    .slice(0, 100) || "typed";

export async function attemptDelivery(
  env: TargetEnv,
  target: { url: string; secrets: string[] },
  event: { id: string; body: string },
  now: () => number = Date.now,
): Promise<AttemptResult> {
  const started = now();
  const took = () => Math.max(0, Math.round(now() - started));
  const checked = await resolveTarget(target.url, env);
  if (!checked.ok)
    return {
      ok: false,
      status: null,
      durationMs: took(),
      errorCode: checked.dns ? "dns_failed" : "invalid_target",
      error: checked.dns ? DELIVERY_FAILURES.dns_failed : `refused URL: ${checked.reason}`,
      excerpt: null,
    };
  const timestamp = Math.floor(now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    ...(await signedHeaders(target.secrets, event.id, timestamp, event.body)),
  };
  let response: Response;
  try {
    response = await fetch(checked.url.href, {
      method: "POST",
      headers,
      body: event.body,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
  } catch (error) {
    const fault = networkFault(error);
    return {
      ok: false,
      status: null,
      durationMs: took(),
      errorCode: fault,
      error: DELIVERY_FAILURES[fault],
      excerpt: null,
    };
  }
  const contentType = response.headers.get("content-type");
  const quoted = quotable(contentType);
  let excerpt: string | null = null;
  if (quoted) excerpt = await excerptOf(response);
  else await response.body?.cancel().catch(() => undefined);
  const ok = response.status >= 200 && response.status < 300;
  const redirect = response.status >= 300 && response.status < 400;
  const unquoted =
    !quoted && response.body !== null && contentType ? ` (${mediaType(contentType)} answer not quoted)` : "";
  return {
    ok,
    status: response.status,
    durationMs: took(),
    errorCode: ok ? null : redirect ? "redirect" : "http_status",
    error: ok
      ? null
      : redirect
        ? `HTTP ${response.status}: redirects are not followed`
        : `HTTP ${response.status}${unquoted}`,
    excerpt,
  };
}

/**
 * A logged attempt's failure in the vocabulary: as recorded, or, for an attempt logged before codes
 * were kept, read from its message (whose runtime wording, "could not connect: TypeError: …", is
 * replaced by the fixed one).
 */
export function loggedFailure(entry: { error: string | null; error_code?: string | null }): {
  code: DeliveryFailure | null;
  error: string | null;
} {
  const { error } = entry;
  if (error === null) return { code: null, error: null };
  if (entry.error_code && entry.error_code in DELIVERY_FAILURES)
    return { code: entry.error_code as DeliveryFailure, error };
  if (/^HTTP 3\d\d: redirects/.test(error)) return { code: "redirect", error };
  if (/^HTTP \d{3}/.test(error)) return { code: "http_status", error };
  if (error.startsWith("no answer within")) return { code: "timeout", error: DELIVERY_FAILURES.timeout };
  if (error.startsWith("refused URL: ")) return { code: "invalid_target", error };
  return { code: "connection_failed", error: DELIVERY_FAILURES.connection_failed };
}
