import type { z } from "zod";
// Request bodies as the sandbox reads them: never more than a cap, strict UTF-8, and every way a body
// can be wrong is a value the route answers with a 4xx (never a parser's exception).
import { readCapped } from "../lib/capped-body";

/** The consent form and the token endpoint's form: a few short fields. */
export const FORM_MAX_BYTES = 16 * 1024;
/**
 * A publish or reply body. Above any platform's post size, and below the 2 MB a row of the store's
 * SQLite holds, so nothing accepted here can fail to be stored.
 */
export const POST_BODY_MAX_BYTES = 1536 * 1024;

export type BodyProblem = { kind: "too_large" } | { kind: "malformed"; message: string };

/** Strict UTF-8, else null. */
function decode(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

const mediaType = (request: Request) =>
  (request.headers.get("content-type") ?? "").split(";", 1)[0]!.trim().toLowerCase();

/**
 * An `application/x-www-form-urlencoded` body (what an HTML form and every OAuth token request send), or
 * what is wrong with it.
 */
export async function readForm(request: Request): Promise<URLSearchParams | BodyProblem> {
  if (mediaType(request) !== "application/x-www-form-urlencoded") {
    return { kind: "malformed", message: "The body must be application/x-www-form-urlencoded." };
  }
  const bytes = await readCapped(request, FORM_MAX_BYTES);
  if (bytes === "too_large") return { kind: "too_large" };
  const text = bytes && decode(bytes);
  if (text === null) return { kind: "malformed", message: "The body is not readable UTF-8 text." };
  // URLSearchParams never throws: a broken escape stays as sent, a non-UTF-8 one becomes U+FFFD.
  return new URLSearchParams(text);
}

/** A JSON body (null when it is not JSON), or what is wrong with it. */
export async function readJson(request: Request): Promise<{ value: unknown } | BodyProblem> {
  const bytes = await readCapped(request, POST_BODY_MAX_BYTES);
  if (bytes === "too_large") return { kind: "too_large" };
  const text = bytes && decode(bytes);
  if (text === null) return { kind: "malformed", message: "The body is not readable UTF-8 text." };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { kind: "malformed", message: "The body is not JSON." };
  }
}

export const isProblem = (value: unknown): value is BodyProblem =>
  typeof value === "object" && value !== null && "kind" in value;

/** The parsed body, or the message of its first problem. */
export function readBody<T>(schema: z.ZodType<T>, body: unknown): T | string {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid request: ${path}${issue?.message ?? "malformed body"}`;
}
