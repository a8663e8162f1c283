// The parts of the OpenAPI document every route shares: the error bodies and the rate-limit headers.
// The document itself (header, security schemes, the public and operator halves) is document.ts.
import { z } from "zod";
import { ABILITIES } from "../db/enums";

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 422 | 429;

const message = z.object({ message: z.string() }).meta({ id: "Error" });
const validation = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) }).meta({
  id: "ValidationError",
  example: {
    message: "The name field is required. (and 1 more error)",
    errors: { name: ["The name field is required."], color: ["The color field is required."] },
  },
});
const forbiddenError = z
  .object({
    message: z.string(),
    ability: z.enum(ABILITIES).meta({ description: "The ability the key lacks for this operation." }),
  })
  .meta({
    id: "ForbiddenError",
    example: { message: "Forbidden - Insufficient permissions", ability: "accounts" },
  });
const codedError = z
  .object({
    code: z.string(),
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({
    id: "CodedError",
    example: { code: "no_signing_secret", message: "This API key has no signing secret." },
  });

const rateHeaders = {
  "X-RateLimit-Limit": { description: "Requests allowed per minute (60).", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in this minute.", schema: { type: "integer" } },
} as const;

const ERRORS: Record<ErrorStatus, { description: string; example: string }> = {
  400: {
    description:
      "A body that cannot be read: malformed JSON, a JSON body that is not an object, or malformed multipart/form-data.",
    example: "Malformed JSON in request body.",
  },
  401: {
    description: "Missing or unknown API key (`Unauthenticated.`); an expired key answers `Expired`.",
    example: "Unauthenticated.",
  },
  403: {
    description: "The key lacks the ability this operation needs; `ability` names it.",
    example: "Forbidden - Insufficient permissions",
  },
  404: {
    description: "No such record among the workspaces the key's user can access.",
    example: "Post not found.",
  },
  409: {
    description: "The record is in a state that does not allow this now.",
    example: "A post cannot be edited while it is being published.",
  },
  413: {
    description:
      "The body is over 1 MiB, by its Content-Length or as it was read: refused before it is parsed. The same body on every operation.",
    example: "The request body is too large.",
  },
  415: {
    description: "The body was not sent with the content type this operation takes.",
    example: "The request body must be sent as application/json.",
  },
  416: {
    description: "The Range header asks for bytes past the end.",
    example: "The requested range is not satisfiable.",
  },
  422: {
    description: "Field errors, Laravel style: the first message and every message by field.",
    example: "",
  },
  429: {
    description: "More than 60 requests in a minute for this user, across all of the user's keys.",
    example: "Too Many Attempts.",
  },
};

/**
 * Who answers: the API's `{message}`, the delegation endpoint's `{code, message}`, the operator API, or
 * a signed media link.
 */
export type ErrorAudience = "api" | "coded" | "operator" | "link";

/** Where an audience's errors mean something else than the API's. */
const WORDING: Record<Exclude<ErrorAudience, "api">, Partial<Record<ErrorStatus, string>>> = {
  coded: {
    401: "`missing_api_key` without a key; `invalid_api_key` for an unknown or expired one.",
    413: "The body is over 1 MiB: refused before the endpoint reads it, with the plain `{message}` every route answers (no `code`).",
    422: "`invalid_request` with Laravel-style `errors` for field errors; `no_signing_secret`; `unsupported_platform`.",
    429: "`rate_limited`: more than 60 requests in a minute for this user, across all of the user's keys.",
  },
  operator: {
    401: "Missing or wrong operator token.",
    404: "No such record; every operator route answers 404 while `ADMIN_TOKEN` is unset.",
  },
  link: {
    403: "The signature does not match, or the link has expired (`Invalid signature.`, `This link has expired.`).",
    404: "No such media item, or its import failed.",
    409: "The item is still being imported; try again after `Retry-After` seconds.",
  },
};

const header = (description: string) => ({ description, schema: { type: "integer" } });

/** Headers answers carry, defined once as components (registered by document.ts). */
export const SHARED_HEADERS = {
  ServerTiming: {
    description:
      'What the request spent: `db;dur=<ms>;desc="<round trips>"`, `gate;dur=<ms>` (Durable Object calls), `hops;desc="<n>"`, `rows;desc="<n>"`.',
    schema: { type: "string" },
    example: 'db;dur=1.8;desc="1", gate;dur=0.9, hops;desc="1", rows;desc="412"',
  },
  D1Bookmark: {
    description:
      "The database session's latest bookmark, when the request used one database: send it back in the `X-D1-Bookmark` request header to read data at least as fresh as this answer.",
    schema: { type: "string" },
  },
  RateLimitLimit: { description: "Requests allowed per minute (60).", schema: { type: "integer" } },
  RateLimitRemaining: { description: "Requests left in this minute.", schema: { type: "integer" } },
} as const;

const ref = (name: keyof typeof SHARED_HEADERS) => ({ $ref: `#/components/headers/${name}` });

/**
 * `responses` with the headers every answer of its kind carries: `Server-Timing` and `X-D1-Bookmark` on
 * every answer behind the request context; with `rate`, the rate-limit headers on every answer of an
 * admitted request (all but 401, refused before it is counted; a 429 declares its own).
 */
export function withSharedHeaders<T extends Record<string | number, unknown>>(
  responses: T,
  rate: boolean,
): T {
  const out: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(responses)) {
    const own = (response as { headers?: Record<string, unknown> }).headers ?? {};
    const counted = rate && status !== "401";
    out[status] = {
      ...(response as object),
      headers: {
        "Server-Timing": ref("ServerTiming"),
        "X-D1-Bookmark": ref("D1Bookmark"),
        ...(counted ? { "X-RateLimit-Limit": ref("RateLimitLimit") } : {}),
        ...(counted ? { "X-RateLimit-Remaining": ref("RateLimitRemaining") } : {}),
        ...own,
      },
    };
  }
  return out as T;
}

/** The documented answers of the given error statuses, with the shared bodies and headers. */
export function errorResponses(statuses: readonly ErrorStatus[], audience: ErrorAudience = "api") {
  const coded = audience === "coded";
  const responses: Record<number, object> = {};
  for (const status of new Set(statuses)) {
    const { description, example } = ERRORS[status];
    // A 413 is refused before the route reads anything: `{message}` on every route, coded ones too.
    const plain = !coded || status === 413;
    const insufficient = status === 403 && audience === "api";
    const schema = !plain
      ? codedError
      : status === 422
        ? validation
        : insufficient
          ? forbiddenError
          : message;
    responses[status] = {
      description: (audience !== "api" && WORDING[audience][status]) || description,
      content: {
        "application/json": {
          schema,
          ...(status !== 422 && plain && !insufficient ? { example: { message: example } } : {}),
        },
      },
      ...(status === 429
        ? {
            headers: {
              ...rateHeaders,
              "Retry-After": header("Seconds until the window reopens."),
              "X-RateLimit-Reset": header("Unix time the window reopens."),
            },
          }
        : {}),
      ...(status === 416
        ? { headers: { "Content-Range": { description: "`bytes */<size>`", schema: { type: "string" } } } }
        : {}),
      ...(status === 409 && audience === "link"
        ? { headers: { "Retry-After": header("Seconds after which the item may be ready.") } }
        : {}),
    };
  }
  return responses;
}

/** A JSON answer of a route declaration. */
export const jsonContent = <S extends z.ZodType>(schema: S, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body of a route declaration. */
export const jsonBody = <S extends z.ZodType>(schema: S) => ({
  content: { "application/json": { schema } },
  required: true,
});
