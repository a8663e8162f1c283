// X's error answers (docs.x.com › X API › Fundamentals › Response codes and errors): v2 problem details
// (`{title, detail, type, status}`, `type` a problem URI or `about:blank`), the `errors[]` of an invalid
// request, and the rate-limit headers every answer carries (`x-rate-limit-limit`, `-remaining`, `-reset`
// in epoch seconds: docs.x.com › X API › Fundamentals › Rate limits).
import type { Problem } from "../emulator";

export const PROBLEMS = "https://api.twitter.com/2/problems";

/** Requests per 15-minute window X documents for each endpoint on a user's token (Basic/Pro plans). */
export const WINDOW_SECONDS = 15 * 60;

/** The rate-limit headers of an answer: the window's limit, what is left and when it resets. */
export function rateLimitHeaders(limit: number, remaining: number, resetAt: number): Record<string, string> {
  return {
    "x-rate-limit-limit": String(limit),
    "x-rate-limit-remaining": String(Math.max(0, remaining)),
    "x-rate-limit-reset": String(Math.ceil(resetAt / 1000)),
  };
}

/**
 * The answer with X's rate-limit headers for an endpoint allowing `limit` requests per 15 minutes on a
 * user's token (docs.x.com › Rate limits): the window ends on the quarter hour.
 */
export function limited(limit: number, answer: Response): Response {
  const window = WINDOW_SECONDS * 1000;
  const resetAt = Math.ceil((Date.now() + 1) / window) * window;
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(rateLimitHeaders(limit, limit - 1, resetAt)))
    headers.set(name, value);
  return new Response(answer.body, { status: answer.status, headers });
}

const json = (body: object, status: number, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });

/** A v2 problem (RFC 7807 as X writes it). */
export const problemBody = (title: string, detail: string, status: number, type = "about:blank") => ({
  title,
  detail,
  type,
  status,
});

/** The `errors[]` answer of a request X could not read: bad parameters, fields or body. */
export const invalidRequestBody = (message: string, parameters: Record<string, string[]> = {}) => ({
  errors: [{ parameters, message }],
  title: "Invalid Request",
  detail: "One or more parameters to your request was invalid.",
  type: `${PROBLEMS}/invalid-request`,
});

/** The error body of a lookup's missing resource (answered with 200 and no `data`, as X does). */
export const notFoundError = (resource: "tweet" | "user" | "media", id: string, parameter = "id") => ({
  value: id,
  detail: `Could not find ${resource} with ${parameter}: [${id}].`,
  title: "Not Found Error",
  resource_type: resource,
  parameter,
  resource_id: id,
  type: `${PROBLEMS}/resource-not-found`,
});

/** X's answer to a refusal, in its own shape and words. */
export function xError(problem: Problem): Response {
  switch (problem.reason) {
    case "invalid_token":
    case "expired_token":
    case "revoked_token":
      // X says no more than this, whatever is wrong with the token.
      return json(problemBody("Unauthorized", "Unauthorized", 401), 401);
    case "invalid_request":
    case "not_ready":
      return json(invalidRequestBody(problem.message), 400);
    case "not_found":
      return json(
        problemBody("Not Found Error", problem.message, 404, `${PROBLEMS}/resource-not-found`),
        404,
      );
    case "forbidden":
    case "rejected":
      return json(problemBody("Forbidden", problem.message, 403), 403);
    case "too_large":
      return json(problemBody("Payload Too Large", problem.message, 413), 413);
    case "unavailable":
      return json(problemBody("Service Unavailable", problem.message, 503), 503);
    case "rate_limited": {
      const wait = problem.retryAfterSeconds ?? 60;
      const headers = rateLimitHeaders(Number(problem.code ?? 100), 0, Date.now() + wait * 1000);
      return json(problemBody("Too Many Requests", "Too Many Requests", 429), 429, headers);
    }
  }
}
