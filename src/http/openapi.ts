// The parts of the OpenAPI document every route shares: the error bodies, the rate-limit headers, the
// security schemes, and the document's header.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Env as HonoEnv } from "hono";
import { z } from "zod";
import { publicOrigin } from "../lib/origin";

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 416 | 422 | 429;

const message = z.object({ message: z.string() }).meta({ id: "Error" });
const validation = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) }).meta({
  id: "ValidationError",
  example: {
    message: "The name field is required. (and 1 more error)",
    errors: { name: ["The name field is required."], color: ["The color field is required."] },
  },
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
    description: "The key lacks the ability this operation needs.",
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

/** The documented answers of the given error statuses, with the shared bodies and headers. */
export function errorResponses(statuses: readonly ErrorStatus[], audience: ErrorAudience = "api") {
  const coded = audience === "coded";
  const responses: Record<number, object> = {};
  for (const status of new Set(statuses)) {
    const { description, example } = ERRORS[status];
    // A 413 is refused before the route reads anything: `{message}` on every route, coded ones too.
    const plain = !coded || status === 413;
    const schema = !plain ? codedError : status === 422 ? validation : message;
    responses[status] = {
      description: (audience !== "api" && WORDING[audience][status]) || description,
      content: {
        "application/json": {
          schema,
          ...(status !== 422 && plain ? { example: { message: example } } : {}),
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

/** Serves the document of every route registered on `app` at GET /openapi.json. */
export function registerDocument<E extends HonoEnv>(app: OpenAPIHono<E>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`spk_…`, or `spk<n>_…` for a user in shard n), created by the operator API and shown once. Each key carries abilities: `posts`, `workspaces`, `accounts`, `labels`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator token (`ADMIN_TOKEN`). The operator API does not exist while it is unset.",
  });
  // Built on its first request, then kept for the isolate's life: the routes are all registered when the
  // module loads, and only the server's origin varies by request. It is spliced in as the first member.
  let document: string | undefined;
  const build = () =>
    JSON.stringify(
      app.getOpenAPI31Document({
        openapi: "3.1.0",
        info: {
          title: "Social publishing API",
          version: "1.0.0",
          description: [
            "Workspaces, connected social accounts, posts published to eight platforms, labels, a media library, engagement analytics, and OAuth delegation that returns a signed proof of account ownership.",
            "",
            "Every `/api/v1` request carries `Authorization: Bearer <API key>`. Each user may make 60 requests per minute across all of their keys; every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`, and `Server-Timing` says what the request spent (`db` round trips, `gate` Durable Object calls, `hops`: remote calls made one after another, `rows`: rows the database read).",
            "",
            "Reads may be served by the database replica nearest to the caller. Every answer carries `X-D1-Bookmark`; send its value back, unchanged, in the `X-D1-Bookmark` request header and the request reads data at least as fresh as that answer (read your own writes). A value that is not a bookmark is a 400.",
          ].join("\n"),
        },
        tags: [
          { name: "Workspaces" },
          { name: "Accounts" },
          { name: "Posts" },
          { name: "Labels" },
          { name: "Folders" },
          { name: "Media" },
          { name: "Analytics" },
          { name: "Webhooks" },
          { name: "Delegation" },
          { name: "Operator", description: "Stands in for the account web app: users, workspaces, keys." },
        ],
      }),
    );
  app.get("/openapi.json", (c) => {
    document ??= build();
    const servers = [{ url: publicOrigin(c.env as Pick<Env, "PUBLIC_BASE_URL">, c.req.url) }];
    return c.body(`{"servers":${JSON.stringify(servers)},${document.slice(1)}`, 200, {
      "Content-Type": "application/json",
    });
  });
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
