// The delegation endpoint's JSON errors: `{code, message}` with the spec's codes, and `invalid_request`
// (plus Laravel-style `errors`) for bodies that fail validation. Everything is rendered by the app's
// one renderError; this only adds the `code`.
import type { Context } from "hono";
import { PLATFORMS } from "../db/schema";
import { ApiError, type ErrorBody, renderError } from "../http/errors";

export type DelegationErrorCode =
  | "missing_api_key"
  | "invalid_api_key"
  | "no_signing_secret"
  | "unsupported_platform"
  | "invalid_request"
  | "rate_limited"
  | "not_found"
  | "server_error";

const delegationError = (status: 401 | 422, code: DelegationErrorCode, message: string) =>
  new ApiError(status, { code, message });

export const missingApiKey = () =>
  delegationError(401, "missing_api_key", "An API key is required: send it as Authorization: Bearer <key>.");

export const invalidApiKey = (expired: boolean) =>
  delegationError(401, "invalid_api_key", expired ? "The API key has expired." : "The API key is invalid.");

export const noSigningSecret = () =>
  delegationError(
    422,
    "no_signing_secret",
    "This API key has no signing secret. Generate one in the API key settings before creating delegation sessions.",
  );

export const unsupportedPlatform = (platform: string) =>
  delegationError(
    422,
    "unsupported_platform",
    `The platform "${platform}" is not supported. Supported platforms: ${PLATFORMS.join(", ")}.`,
  );

export const platformNotConfigured = (platform: string) =>
  delegationError(
    422,
    "unsupported_platform",
    `The platform "${platform}" is not configured on this service: its OAuth app credentials are missing.`,
  );

const CODE_BY_STATUS: Record<number, DelegationErrorCode> = {
  400: "invalid_request",
  404: "not_found",
  415: "invalid_request",
  422: "invalid_request",
  429: "rate_limited",
};

/** onError of the session endpoint: the shared envelope, with a `code` first. */
export async function renderDelegationError(err: Error, c: Context): Promise<Response> {
  const rendered = renderError(err, c);
  const { code, ...rest } = (await rendered.json()) as ErrorBody;
  const resolved = typeof code === "string" ? code : (CODE_BY_STATUS[rendered.status] ?? "server_error");
  return new Response(JSON.stringify({ code: resolved, ...rest }), {
    status: rendered.status,
    headers: rendered.headers,
  });
}
