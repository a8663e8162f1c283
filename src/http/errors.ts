// One error type, one envelope, one renderer for every failure the service answers. Errors are built
// only by the factories below. A route picks how failures look with `errorStyle`: the API's
// `{message}` (default), the delegation endpoint's `{code, message}`, or an HTML page for browsers.
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { type Ability, PLATFORMS } from "../db/enums";
import { htmlPage } from "../lib/html";
import { messagesByField, notAllowedMessage } from "./messages";

export type ErrorBody = { message: string; errors?: Record<string, string[]>; ability?: Ability };
export type ErrorStyle = "json" | "coded" | "html";

export class ApiError extends HTTPException {
  readonly body: ErrorBody;
  readonly headers: Record<string, string>;
  /** The machine-readable code the delegation endpoint answers with (`missing_api_key`, …). */
  readonly code: string | undefined;

  constructor(
    status: ContentfulStatusCode,
    body: ErrorBody,
    options: { headers?: Record<string, string>; code?: string } = {},
  ) {
    super(status, { message: body.message });
    this.body = body;
    this.headers = options.headers ?? {};
    this.code = options.code;
  }
}

export const unauthenticated = () => new ApiError(401, { message: "Unauthenticated." });
export const expiredKey = () => new ApiError(401, { message: "Expired" });
/** The key lacks `ability`: the spec's message, and the ability named so the integrator knows which. */
export const forbidden = (ability: Ability, headers: Record<string, string> = {}) =>
  new ApiError(403, { message: "Forbidden - Insufficient permissions", ability }, { headers });
export const notFound = (what: string) => new ApiError(404, { message: `${what} not found.` });
export const routeNotFound = () => new ApiError(404, { message: "Route not found." });
/** Laravel's 405: the path (without its leading slash) and the methods it serves, in `Allow` too. */
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]) =>
  new ApiError(
    405,
    {
      message: `The ${method} method is not supported for route ${path.replace(/^\/+|\/+$/g, "") || "/"}. Supported methods: ${allowed.join(", ")}.`,
    },
    { headers: { Allow: allowed.join(", ") } },
  );
export const badRequest = (message: string) => new ApiError(400, { message });
export const conflict = (message: string, headers: Record<string, string> = {}) =>
  new ApiError(409, { message }, { headers });
/** A body over its route's cap (src/http/body-limit.ts): the same answer on every route, whatever its style. */
export const payloadTooLarge = () => new ApiError(413, { message: "The request body is too large." });
export const unsupportedMediaType = (type = "application/json") =>
  new ApiError(415, { message: `The request body must be sent as ${type}.` });
export const forbiddenLink = (message: string) => new ApiError(403, { message });
export const rangeNotSatisfiable = (size: number, headers: Record<string, string> = {}) =>
  new ApiError(
    416,
    { message: "The requested range is not satisfiable." },
    { headers: { ...headers, "Content-Range": `bytes */${size}` } },
  );

export const tooManyAttempts = (headers: Record<string, string>) =>
  new ApiError(429, { message: "Too Many Attempts." }, { headers });

/** Laravel's 422: the first message, "(and N more errors)", and every message by field. */
export function validationFailed(errors: Record<string, string[]>): ApiError {
  const messages = Object.values(errors).flat();
  const rest = messages.length - 1;
  const suffix = rest > 0 ? ` (and ${rest} more error${rest === 1 ? "" : "s"})` : "";
  return new ApiError(422, { message: `${messages[0] ?? "The given data was invalid."}${suffix}`, errors });
}

/** A single-field 422, for rules checked against the database after the schema passed. */
export const invalidField = (field: string, message: string) => validationFailed({ [field]: [message] });

/** A 422 for a field the request's schema does not know (the upload's form parts; zod reports the rest). */
export const unknownField = (name: string) => validationFailed({ [name]: [notAllowedMessage([name])] });

/** The 422 of a failed zod parse. */
export const invalidInput = (error: { issues: readonly z.core.$ZodIssue[] }, input: unknown) =>
  validationFailed(messagesByField(error.issues, input));

// The delegation session endpoint's codes (docs/guide.md, "OAuth delegation").
const coded = (status: 401 | 422, code: string, message: string) =>
  new ApiError(status, { message }, { code });

export const missingApiKey = () =>
  coded(401, "missing_api_key", "An API key is required: send it as Authorization: Bearer <key>.");
export const invalidApiKey = (expired: boolean) =>
  coded(401, "invalid_api_key", expired ? "The API key has expired." : "The API key is invalid.");
export const noSigningSecret = () =>
  coded(
    422,
    "no_signing_secret",
    "This API key has no signing secret. Generate one in the API key settings before creating delegation sessions.",
  );
export const unsupportedPlatform = (platform: string) =>
  coded(
    422,
    "unsupported_platform",
    `The platform "${platform}" is not supported. Supported platforms: ${PLATFORMS.join(", ")}.`,
  );
export const platformNotConfigured = (platform: string) =>
  coded(
    422,
    "unsupported_platform",
    `The platform "${platform}" is not configured on this service: its OAuth app credentials are missing.`,
  );

/** The code of an error that carries none, on the coded style. */
const CODE_BY_STATUS: Record<number, string> = {
  400: "invalid_request",
  404: "not_found",
  409: "conflict",
  415: "invalid_request",
  422: "invalid_request",
  429: "rate_limited",
};

/** Sets the error style for the routes it is mounted on. */
export const errorStyle = (style: ErrorStyle) =>
  createMiddleware<{ Variables: { errorStyle?: ErrorStyle } }>(async (c, next) => {
    c.set("errorStyle", style);
    await next();
  });

/** Anything thrown, as an ApiError: ours as is, Hono's client errors in our envelope, the rest a 500. */
function toApiError(err: Error, c: Context): ApiError {
  if (err instanceof ApiError) return err;
  // The gate's refusal reaching a write the database held back (src/http/meter.ts) comes wrapped by
  // drizzle as the query's cause.
  if (err.cause instanceof ApiError) return err.cause;
  if (err instanceof HTTPException && err.status === 415) return unsupportedMediaType();
  if (err instanceof HTTPException && err.status < 500) {
    // Malformed JSON or form data.
    return new ApiError(err.status, { message: err.message.endsWith(".") ? err.message : `${err.message}.` });
  }
  console.error("unhandled error", c.req.method, new URL(c.req.url).pathname, err);
  return new ApiError(500, { message: "Server Error" });
}

export function renderError(err: Error, c: Context): Response {
  const error = toApiError(err, c);
  // Refused before the route read anything, so the route's style (a page, a code) does not apply.
  if (error.status === 413) return c.json(error.body, 413);
  const style = (c.get("errorStyle") as ErrorStyle | undefined) ?? "json";
  if (style === "html") {
    const failed = error.status >= 500;
    return htmlPage({
      status: failed ? 500 : 400,
      title: failed ? "Something went wrong" : "This request cannot be completed",
      body: failed
        ? "<h1>Something went wrong</h1><p>The connection could not be completed. Please try again later.</p>"
        : "<h1>This request cannot be completed</h1><p>Go back to the application you came from and start again.</p>",
    });
  }
  if (style === "coded") {
    const code = error.code ?? CODE_BY_STATUS[error.status] ?? "server_error";
    return c.json({ code, ...error.body }, error.status, error.headers);
  }
  return c.json(error.body, error.status, error.headers);
}
