// One error type and one envelope for every failure the API answers.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export type ErrorBody = { message: string } & Record<string, unknown>;

export class ApiError extends HTTPException {
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;

  constructor(status: ContentfulStatusCode, body: ErrorBody, headers: Record<string, string> = {}) {
    super(status, { message: body.message });
    this.body = body;
    this.headers = headers;
  }
}

export const unauthenticated = () => new ApiError(401, { message: "Unauthenticated." });
export const expiredKey = () => new ApiError(401, { message: "Expired" });
export const forbidden = () => new ApiError(403, { message: "Forbidden - Insufficient permissions" });
export const notFound = (what: string) => new ApiError(404, { message: `${what} not found.` });
export const badRequest = (message: string) => new ApiError(400, { message });

/** Laravel's 422: the first message, "(and N more errors)", and every message by field. */
export function validationFailed(errors: Record<string, string[]>): ApiError {
  const messages = Object.values(errors).flat();
  const rest = messages.length - 1;
  const suffix = rest > 0 ? ` (and ${rest} more error${rest === 1 ? "" : "s"})` : "";
  return new ApiError(422, { message: `${messages[0] ?? "The given data was invalid."}${suffix}`, errors });
}

/** A single-field 422, for rules checked against the database after the schema passed. */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

export function renderError(err: Error, c: Context): Response {
  if (err instanceof ApiError) {
    return c.json(err.body, err.status, err.headers);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own client errors (malformed JSON, malformed form data): same envelope.
    return c.json({ message: err.message.endsWith(".") ? err.message : `${err.message}.` }, err.status);
  }
  console.error("unhandled error", c.req.method, new URL(c.req.url).pathname, err);
  return c.json({ message: "Server Error" }, 500);
}
