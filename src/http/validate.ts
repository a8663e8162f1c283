// One validation entry point: zod schemas through @hono/zod-validator, failures thrown into onError as
// the documented envelopes (400 for a body that is not a JSON object, 422 Laravel-style otherwise).
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { z } from "zod";
import { ApiError, badRequest, validationFailed } from "./errors";

type Issue = z.core.$ZodIssue;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cursor = data;
  for (const key of path) {
    if (cursor === null || typeof cursor !== "object") return undefined;
    cursor = (cursor as Record<PropertyKey, unknown>)[key];
  }
  return cursor;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  // Every number the API accepts is an integer (zod reports z.int() type errors as "number").
  number: "an integer",
  int: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "an object",
};

/** Laravel's wording: "The workspace id field is required." */
export function issueMessage(issue: Issue, input: unknown): string {
  const attribute = issue.path.map(String).join(".").replaceAll("_", " ") || "body";
  const field = `The ${attribute} field`;
  const value = valueAt(input, issue.path);
  // Messages written in our schemas are already in this style; zod's defaults are not.
  if (issue.message.startsWith("The ")) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined || value === null) return `${field} is required.`;
      return `${field} must be ${TYPE_NAMES[issue.expected] ?? `of type ${issue.expected}`}.`;
    case "too_small":
      if (issue.origin === "string")
        return issue.minimum === 1
          ? `${field} is required.`
          : `${field} must be at least ${issue.minimum} characters.`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${field} must have at least ${issue.minimum} item${issue.minimum === 1 ? "" : "s"}.`;
      return `${field} must be at least ${issue.minimum}.`;
    case "too_big":
      if (issue.origin === "string") return `${field} must not be greater than ${issue.maximum} characters.`;
      if (issue.origin === "array" || issue.origin === "set")
        return `${field} must not have more than ${issue.maximum} items.`;
      return `${field} must not be greater than ${issue.maximum}.`;
    case "invalid_format":
      if (issue.format === "url") return `${field} must be a valid URL.`;
      if (issue.format === "datetime") return `${field} must be an ISO 8601 date-time with an offset.`;
      return `${field} format is invalid.`;
    case "invalid_value":
      return `The selected ${attribute} is invalid.`;
    case "unrecognized_keys":
      return `${field} has unknown keys: ${issue.keys.join(", ")}.`;
    case "custom":
      return issue.message;
    default:
      return `${field} is invalid.`;
  }
}

export function toValidationError(error: { issues: readonly Issue[] }, input: unknown): ApiError {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join(".") || "body";
    const list = errors[key] ?? [];
    const message = issueMessage(issue, input);
    if (!list.includes(message)) list.push(message);
    errors[key] = list;
  }
  return validationFailed(errors);
}

/** Validates a target with one shared hook; the handler sees typed, parsed data. */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (target === "json") {
      const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      const hasBody = c.req.header("content-length") !== "0" && c.req.raw.body !== null;
      if (hasBody && !/^application\/([\w.-]+\+)?json$/.test(mediaType)) {
        throw new ApiError(415, { message: "The request body must be sent as application/json." });
      }
      if (!isPlainObject(result.data)) throw badRequest("The request body must be a JSON object.");
    }
    if (!result.success) throw toValidationError(result.error, result.data);
  });
}

/** A positive integer id in a path segment; anything else is a 422 naming the parameter. */
export const idParam = (name = "id") =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, { message: `The ${name} must be an integer.` })
    .transform(Number);

/** ISO 8601 with an offset or Z, turned into a Date. */
export const isoDateTime = () => z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const hexColor = () =>
  z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: "The color must be a hex color such as #4F46E5." });

export const positiveId = () => z.int().positive().max(Number.MAX_SAFE_INTEGER);

/** The `{id}` path parameter of a resource route, validated as idParam("id"). */
export const idPath = () => validate("param", z.object({ id: idParam("id") }));
