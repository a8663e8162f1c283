// One delivery attempt: the target checked and resolved again (src/webhooks/target.ts), the signed POST
// with a timeout and redirects left unfollowed, and what came of it: the status, the time it took, an
// error, and a short excerpt of the answer (the rest of the body is never read).
import { ATTEMPT_TIMEOUT_MS, EXCERPT_CHARS } from "./catalog";
import { signedHeaders } from "./sign";
import { resolveTarget, type TargetEnv } from "./target";

export type AttemptResult = {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  excerpt: string | null;
};

export const USER_AGENT = "social-publishing-api-webhooks/1";

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
      error: `refused URL: ${checked.reason}`,
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
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      ok: false,
      status: null,
      durationMs: took(),
      error: timedOut
        ? `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`
        : `could not connect: ${String(error)}`,
      excerpt: null,
    };
  }
  const excerpt = await excerptOf(response);
  const ok = response.status >= 200 && response.status < 300;
  const redirect = response.status >= 300 && response.status < 400;
  return {
    ok,
    status: response.status,
    durationMs: took(),
    error: ok
      ? null
      : redirect
        ? `HTTP ${response.status}: redirects are not followed`
        : `HTTP ${response.status}`,
    excerpt,
  };
}
