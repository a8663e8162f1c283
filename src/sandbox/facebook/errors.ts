// Facebook's error answers, as developers.facebook.com › Graph API › Overview › Handling Errors shows them:
// `{error: {message, type, code, error_subcode, fbtrace_id}}`, an OAuthException (code 190) for a bad
// token, and throttling as code 32 (Page-level) with the X-App-Usage and X-Business-Use-Case-Usage
// headers saying when the app may call again (Graph API › Overview › Rate Limiting).

import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type Problem, refuse } from "../emulator";

const traceId = () => `A${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;

export type MetaError = {
  status: ContentfulStatusCode;
  message: string;
  type: string;
  code: number;
  subcode?: number;
  transient?: boolean;
  headers?: Record<string, string>;
};

/** A Graph API error answer. */
export function graphError(error: MetaError): Response {
  return Response.json(
    {
      error: {
        message: error.message,
        type: error.type,
        code: error.code,
        ...(error.subcode !== undefined ? { error_subcode: error.subcode } : {}),
        ...(error.transient !== undefined ? { is_transient: error.transient } : {}),
        fbtrace_id: traceId(),
      },
    },
    {
      status: error.status,
      headers: { "www-authenticate": 'OAuth "Facebook Platform"', ...error.headers },
    },
  );
}

/**
 * The usage headers of a throttled Page: `estimated_time_to_regain_access` is in whole minutes, and the
 * business use case header is keyed by the Page (the business object) whose calls were counted.
 */
export function usageHeaders(pageId: string, retryAfterSeconds: number): Record<string, string> {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return {
    "x-app-usage": JSON.stringify({ call_count: 100, total_cputime: 25, total_time: 25 }),
    "x-business-use-case-usage": JSON.stringify({
      [pageId]: [
        {
          type: "pages",
          call_count: 100,
          total_cputime: 25,
          total_time: 25,
          estimated_time_to_regain_access: minutes,
        },
      ],
    }),
  };
}

/** Code 32: "Page request limit reached". */
export const pageThrottled = (pageId: string, retryAfterSeconds: number, message: string) =>
  graphError({
    status: 400,
    message: `(#32) Page request limit reached. ${message}`,
    type: "OAuthException",
    code: 32,
    headers: usageHeaders(pageId, retryAfterSeconds),
  });

/** Every refusal of the emulator, in the Graph API's words and codes. */
export function facebookError(problem: Problem): Response {
  const code = typeof problem.code === "number" ? problem.code : undefined;
  switch (problem.reason) {
    case "invalid_token":
      return graphError({
        status: 400,
        message: `Invalid OAuth access token - Cannot parse access token. ${problem.message}`,
        type: "OAuthException",
        code: 190,
      });
    case "expired_token":
      return graphError({
        status: 400,
        message: `Error validating access token: Session has expired. ${problem.message}`,
        type: "OAuthException",
        code: 190,
        subcode: 463,
      });
    case "revoked_token":
      return graphError({
        status: 400,
        message: "Error validating access token: The user has not authorized application.",
        type: "OAuthException",
        code: 190,
        subcode: 458,
      });
    case "forbidden":
      return graphError({ status: 403, message: problem.message, type: "OAuthException", code: code ?? 200 });
    case "not_found":
      return graphError({
        status: 400,
        message: problem.message,
        type: "GraphMethodException",
        code: code ?? 100,
        subcode: 33,
      });
    case "too_large":
      return graphError({ status: 413, message: problem.message, type: "OAuthException", code: 1 });
    case "rejected":
      // Code 368: "The action attempted has been deemed abusive or is otherwise disallowed".
      return graphError({ status: 400, message: problem.message, type: "OAuthException", code: code ?? 368 });
    case "unavailable":
      return graphError({
        status: 503,
        message: `An unexpected error has occurred. Please retry your request later. ${problem.message}`,
        type: "OAuthException",
        code: 2,
        transient: true,
      });
    case "rate_limited":
      return graphError({
        status: 400,
        message: `(#4) Application request limit reached. ${problem.message}`,
        type: "OAuthException",
        code: 4,
        headers: usageHeaders("0", problem.retryAfterSeconds ?? 60),
      });
    case "not_ready":
      return graphError({
        status: 400,
        message: problem.message,
        type: "OAuthException",
        code: code ?? 6000,
      });
    default:
      return graphError({ status: 400, message: problem.message, type: "OAuthException", code: code ?? 100 });
  }
}

/** Code 100, subcode 33: the node does not exist, may not be read, or does not take this call. */
export const unsupported = (method: string, id: string): never =>
  refuse(
    400,
    "not_found",
    `Unsupported ${method} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
  );

/** A throttled attempt, carried up to the route as the Page's code 32 answer (with its usage headers). */
export class ThrottledPage extends Error {
  constructor(readonly response: Response) {
    super("throttled");
  }
}

/** A route whose throttled attempt answers with the Page's usage headers. */
export const throttled =
  <T>(handler: (call: T) => Promise<Response>) =>
  async (call: T): Promise<Response> => {
    try {
      return await handler(call);
    } catch (error) {
      if (error instanceof ThrottledPage) return error.response;
      throw error;
    }
  };
