// Google's error answer for the YouTube Data API: `{error: {code, message, errors: [{message, domain,
// reason}], status}}`, the reason the emulator's refusal names (or the one its reason maps to).
// developers.google.com › YouTube Data API › Errors.
import type { Problem } from "../emulator";

/** A JSON answer with its status. */
export const json = (body: unknown, status = 200) => Response.json(body, { status });

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  409: "ABORTED",
  413: "INVALID_ARGUMENT",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** Google's reason and domain for the emulator's reasons (YouTube Data API › Errors), unless named. */
function reasonOf(problem: Problem): { reason: string; domain: string; status: number } {
  switch (problem.reason) {
    case "invalid_token":
    case "expired_token":
    case "revoked_token":
      return { reason: "authError", domain: "global", status: 401 };
    case "invalid_request":
      return { reason: String(problem.code ?? "badRequest"), domain: "youtube.parameter", status: 400 };
    case "not_found":
      return { reason: String(problem.code ?? "notFound"), domain: "youtube.api", status: 404 };
    case "forbidden":
      return { reason: String(problem.code ?? "forbidden"), domain: "youtube.api", status: 403 };
    case "too_large":
      return { reason: "uploadTooLarge", domain: "global", status: 413 };
    case "rejected":
      return { reason: String(problem.code ?? "badRequest"), domain: "youtube.video", status: 400 };
    case "unavailable":
      return { reason: "backendError", domain: "global", status: 503 };
    case "rate_limited":
      return { reason: "rateLimitExceeded", domain: "youtube.quota", status: 429 };
    case "not_ready":
      return { reason: String(problem.code ?? "failedPrecondition"), domain: "youtube.api", status: 400 };
  }
}

/** Google's error answer; a rate limit says when to come back in Retry-After. */
export const youtubeError = (problem: Problem): Response => {
  const { reason, domain, status } = reasonOf(problem);
  const auth = status === 401;
  const message = auth
    ? `Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. (${problem.message})`
    : problem.message;
  const headers: Record<string, string> = {};
  if (problem.reason === "rate_limited") headers["retry-after"] = String(problem.retryAfterSeconds ?? 60);
  if (auth)
    headers["www-authenticate"] = 'Bearer realm="https://accounts.google.com/", error="invalid_token"';
  return Response.json(
    {
      error: {
        code: status,
        message,
        errors: [
          {
            message: auth ? "Invalid Credentials" : problem.message,
            domain,
            reason,
            ...(auth ? { location: "Authorization", locationType: "header" } : {}),
          },
        ],
        status: STATUS_NAMES[status] ?? "UNKNOWN",
      },
    },
    { status: status as 400, headers },
  );
};
