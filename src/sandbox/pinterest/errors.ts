// Pinterest's error answer, as the v5 reference's Error model gives it: `{code, message}` everywhere; a
// 429 carries the x-ratelimit-* headers. The codes are in rules.ts.
// developers.pinterest.com › API reference v5 (Error model); Rate limits.
import type { Problem } from "../emulator";
import { CODE, RATE_LIMIT_HEADERS } from "./rules";

/** Pinterest's error answer: `{code, message}`; a 429 with its rate-limit headers. */
export function pinterestError(problem: Problem): Response {
  const headers = new Headers({ "content-type": "application/json" });
  let code: number;
  let message = problem.message;
  switch (problem.reason) {
    case "invalid_token":
    case "expired_token":
    case "revoked_token":
      code = CODE.authentication;
      message = `Authentication failed. ${problem.message}`;
      break;
    case "rate_limited": {
      code = CODE.rateLimited;
      const reset = problem.retryAfterSeconds ?? 60;
      headers.set("x-ratelimit-limit", RATE_LIMIT_HEADERS.limit);
      headers.set("x-ratelimit-remaining", "0");
      headers.set("x-ratelimit-reset", String(reset));
      break;
    }
    case "invalid_request":
    case "rejected":
    case "too_large":
      code = CODE.invalidParameters;
      break;
    default:
      code = problem.status;
  }
  if (typeof problem.code === "number") code = problem.code;
  return new Response(JSON.stringify({ code, message }), { status: problem.status, headers });
}
