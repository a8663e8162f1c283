// What the emulators of Meta's Graph hosts (graph.instagram.com, graph.threads.net) share: the error
// body `{error: {message, type, code, error_subcode, is_transient, fbtrace_id}}` (HTTP 400 whatever the
// cause, with the `WWW-Authenticate` header of an OAuth refusal), the rate-limit answers with their usage
// headers, parameters read from the query string and the form body alike (the Graph API reads both),
// the `fields` selection and cursor paging. developers.facebook.com › Graph API › Overview › Handling
// Errors; Rate Limiting; Paginated Results; Instagram Platform › Error Codes.
import { fromBase64Url, toBase64Url, utf8 } from "../lib/encoding";
import { isProblem, readForm } from "./body";
import {
  type Caller,
  type Emulated,
  isReady,
  type LedgerObject,
  type Problem,
  refuse,
  SandboxRefusal,
} from "./emulator";

/** The Graph API's version segment, as every adapter call names it (`v25.0`, `v1.0`). */
export const VERSION = ":version{v[0-9]+\\.[0-9]+}";

export type MetaError = {
  status: Problem["status"];
  message: string;
  type: string;
  code: number;
  subcode?: number;
  transient?: boolean;
  title?: string;
  headers?: Record<string, string>;
};

/** A random fbtrace_id, as every Meta error carries one. */
const traceId = () => toBase64Url(crypto.getRandomValues(new Uint8Array(8)));

/** Meta's error answer. */
export function metaErrorResponse(error: MetaError): Response {
  const body = {
    error: {
      message: error.message,
      type: error.type,
      code: error.code,
      ...(error.subcode === undefined ? {} : { error_subcode: error.subcode }),
      is_transient: error.transient ?? false,
      ...(error.title ? { error_user_title: error.title, error_user_msg: error.message } : {}),
      fbtrace_id: traceId(),
    },
  };
  const headers: Record<string, string> = { "content-type": "application/json", ...error.headers };
  if (error.type === "OAuthException" && error.code === 190)
    headers["www-authenticate"] =
      `OAuth "Facebook Platform" "invalid_token" "${error.message.replace(/"/g, "'")}"`;
  return new Response(JSON.stringify(body), { status: error.status, headers });
}

/** How one Meta host words the refusals every emulator throws (platform-specific codes left to it). */
export type MetaDialect = {
  /** The `type` of its non-OAuth errors (`OAuthException` on Instagram, `THApiException` on Threads). */
  apiException: string;
  /** Its answer to a content refusal (#sandbox-fail): code and subcode. */
  rejected: { code: number; subcode?: number; title?: string };
  /** A transient fault (#sandbox-flaky). */
  unavailable: { status: Problem["status"]; code: number; subcode?: number };
  /** A throttle: its code, message and usage headers (`retryMinutes`: the wait, in whole minutes). */
  rateLimit(problem: Problem & { account?: string }, retryMinutes: number): MetaError;
};

/** The refusal of a problem in a Meta host's dialect. */
export function metaError(dialect: MetaDialect, problem: Problem & { account?: string }): MetaError {
  const code = typeof problem.code === "number" ? problem.code : undefined;
  switch (problem.reason) {
    case "invalid_token":
      return {
        status: 400,
        type: "OAuthException",
        code: 190,
        message: `Invalid OAuth access token - ${problem.message}`,
      };
    case "expired_token":
      return {
        status: 400,
        type: "OAuthException",
        code: 190,
        subcode: 463,
        message: `Error validating access token: Session has expired. ${problem.message}`,
      };
    case "revoked_token":
      return {
        status: 400,
        type: "OAuthException",
        code: 190,
        subcode: 458,
        message: "Error validating access token: The user has not authorized application.",
      };
    case "not_found":
      return {
        status: 400,
        type: dialect.apiException,
        code: code ?? 100,
        subcode: 33,
        message: problem.message,
      };
    case "forbidden":
      return {
        status: 400,
        type: dialect.apiException,
        code: code ?? 10,
        message: `(#${code ?? 10}) ${problem.message}`,
      };
    case "rejected":
      return {
        status: 400,
        type: dialect.apiException,
        code: code ?? dialect.rejected.code,
        ...(code === undefined && dialect.rejected.subcode ? { subcode: dialect.rejected.subcode } : {}),
        ...(code === undefined && dialect.rejected.title ? { title: dialect.rejected.title } : {}),
        message: problem.message,
      };
    case "unavailable":
      return {
        status: dialect.unavailable.status,
        type: dialect.apiException,
        code: dialect.unavailable.code,
        ...(dialect.unavailable.subcode ? { subcode: dialect.unavailable.subcode } : {}),
        transient: true,
        message: problem.message,
      };
    case "rate_limited":
      return dialect.rateLimit(problem, Math.max(1, Math.ceil((problem.retryAfterSeconds ?? 60) / 60)));
    case "too_large":
    case "invalid_request":
    case "not_ready":
      return {
        status: 400,
        type: dialect.apiException,
        code: code ?? (problem.reason === "not_ready" ? 9007 : 100),
        message: problem.message.startsWith("(#") ? problem.message : `(#${code ?? 100}) ${problem.message}`,
      };
  }
}

/** A Meta host's error format, for `emulatorRouter`. */
export const metaFormat = (dialect: MetaDialect) => (problem: Problem) =>
  metaErrorResponse(metaError(dialect, problem));

/**
 * Runs `step`, answering a refusal it throws with the account it acts for named in the usage headers
 * (Meta keys X-Business-Use-Case-Usage by the business object: the Instagram account).
 */
export async function forAccount<T>(
  dialect: MetaDialect,
  account: string,
  step: () => Promise<T>,
): Promise<T | Response> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof SandboxRefusal && error.problem.reason === "rate_limited")
      return metaErrorResponse(metaError(dialect, { ...error.problem, account }));
    throw error;
  }
}

/**
 * The call's parameters: the query string and, on a POST, a form body, as the Graph API reads both
 * (the docs' examples put a POST's parameters in the query; the adapters send a form).
 */
export async function graphParams(request: Request): Promise<URLSearchParams> {
  const params = new URLSearchParams(new URL(request.url).search);
  if (request.method !== "POST") return params;
  const type = (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();
  if (type === "") return params;
  if (type !== "application/x-www-form-urlencoded")
    return refuse(400, "invalid_request", "(#100) The body must be application/x-www-form-urlencoded.");
  const form = await readForm(request);
  if (isProblem(form))
    return form.kind === "too_large"
      ? refuse(413, "too_large", "The request body is too large.")
      : refuse(400, "invalid_request", form.message);
  for (const [name, value] of form) params.set(name, value);
  return params;
}

/** The top-level names of a `fields` list, an expansion's own fields kept: `a,b{c,d}` → `a`, `b{c,d}`. */
function splitFields(fields: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of fields) {
    if (char === "{") depth++;
    if (char === "}") depth--;
    if (char === "," && depth === 0) {
      names.push(current.trim());
      current = "";
    } else current += char;
  }
  names.push(current.trim());
  return names.filter(Boolean);
}

/**
 * A Graph object with only the fields asked for (`id` always, as the Graph API answers it). A field
 * expansion of an edge (`replies{id,text}`) picks the edge's items' own fields, Graph API › Field
 * Expansion.
 */
export function pick(object: Record<string, unknown>, fields: string | null | undefined, defaults: string[]) {
  const asked = fields ? splitFields(fields) : defaults;
  const out: Record<string, unknown> = { id: object.id };
  for (const field of asked) {
    const expansion = /^(\w+)\{(.*)\}$/s.exec(field);
    const name = expansion?.[1] ?? field;
    const value = object[name];
    if (value === undefined) continue;
    const edge = value as { data?: unknown };
    out[name] =
      expansion && Array.isArray(edge.data)
        ? { data: (edge.data as Record<string, unknown>[]).map((item) => pick(item, expansion[2], [])) }
        : value;
  }
  return out;
}

const cursor = (index: number) => toBase64Url(utf8(String(index)));
const fromCursor = (value: string | null) => {
  if (!value) return 0;
  try {
    const index = Number(new TextDecoder().decode(fromBase64Url(value)));
    return Number.isInteger(index) && index >= 0 ? index : 0;
  } catch {
    return 0;
  }
};

/**
 * One page of an edge, `limit` (default 25, at most 100) items after the `after` cursor, with Meta's
 * `paging: {cursors: {before, after}, next}` (`next` only when more follow).
 */
export function page<T>(requestUrl: string, items: T[], defaultLimit = 25) {
  const url = new URL(requestUrl);
  const limit = Math.min(
    100,
    Math.max(1, Number(url.searchParams.get("limit") ?? defaultLimit) || defaultLimit),
  );
  const start = fromCursor(url.searchParams.get("after"));
  const data = items.slice(start, start + limit);
  if (data.length === 0) return { data };
  const end = start + data.length;
  const paging: Record<string, unknown> = { cursors: { before: cursor(start), after: cursor(end) } };
  if (end < items.length) {
    const next = new URL(url);
    next.searchParams.set("after", cursor(end));
    next.searchParams.delete("access_token");
    paging.next = next.toString();
  }
  return { data, paging };
}

/** A Graph time: ISO 8601 with a `+0000` offset. */
export const graphTime = (at: number | string) => new Date(at).toISOString().replace(/\.\d{3}Z$/, "+0000");

/** Whether a URL is one Meta's servers could fetch media from (http or https). */
export const fetchable = (value: string) =>
  URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol);

/** The MIME type a media URL most likely serves (by its extension), else the kind's usual one. */
export function mediaTypeOf(url: string, kind: "image" | "video"): string {
  const path = URL.canParse(url) ? new URL(url).pathname.toLowerCase() : "";
  if (kind === "image")
    return path.endsWith(".png") ? "image/png" : path.endsWith(".webp") ? "image/webp" : "image/jpeg";
  return path.endsWith(".mov") ? "video/quicktime" : "video/mp4";
}

/** Meta's answer for a node that does not exist or is not the caller's. */
export const unsupported = (id: string) =>
  refuse(
    400,
    "not_found",
    `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  );

/** Meta's answer for a missing parameter. */
export const required = (name: string) =>
  refuse(400, "invalid_request", `(#100) The parameter ${name} is required.`);

/** The account's own node: its user id (or `me`), else Meta's unsupported request. */
export function ownNode(caller: Caller, id: string) {
  if (id !== "me" && id !== caller.platformId) unsupported(id);
}

/** A Meta container's life: it expires a day after it was made (Instagram's and Threads' containers alike). */
export const CONTAINER_TTL_MS = 24 * 3_600_000;

export type ContainerStage = "PUBLISHED" | "EXPIRED" | "ERROR" | "IN_PROGRESS" | "FINISHED";

/** Where a container is: published, expired, failed, still processing, or ready to publish. */
export function containerStage(object: LedgerObject): ContainerStage {
  const data = object.data as { published_id?: string; error?: string };
  if (data.published_id) return "PUBLISHED";
  if (Date.now() - object.createdAt > CONTAINER_TTL_MS) return "EXPIRED";
  if (data.error) return "ERROR";
  return isReady(object) ? "FINISHED" : "IN_PROGRESS";
}

/**
 * A carousel's `children` (comma-separated container ids) within `min`–`max`: each the caller's own
 * container, made as a carousel item and finished; else Meta's refusal (`notReady` words the last one).
 */
export async function carouselChildren(
  emu: Emulated,
  caller: Caller,
  params: URLSearchParams,
  limits: { min: number; max: number },
  notReady: () => never,
): Promise<string[]> {
  const children = (params.get("children") ?? "")
    .split(",")
    .map((child) => child.trim())
    .filter(Boolean);
  if (children.length < limits.min || children.length > limits.max)
    refuse(400, "invalid_request", `(#100) A carousel takes ${limits.min} to ${limits.max} children.`);
  for (const child of children) {
    const object = await emu.object(child);
    if (object?.kind !== "container" || object.handle !== caller.handle) return unsupported(child);
    if ((object.data as { is_carousel_item?: boolean }).is_carousel_item !== true)
      refuse(400, "invalid_request", `(#100) The container ${child} is not a carousel item.`);
    if (containerStage(object) !== "FINISHED") notReady();
  }
  return children;
}
