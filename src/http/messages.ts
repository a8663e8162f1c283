// Laravel's validation wording for zod issues: "The workspace id field is required." Schemas that write
// their own message use `:attribute`, replaced here by the field's name.
import type { z } from "zod";

type Issue = z.core.$ZodIssue;

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cursor = data;
  for (const key of path) {
    if (cursor === null || typeof cursor !== "object") return undefined;
    // Own keys only: `constructor` of a plain object is not the value sent.
    if (!Object.hasOwn(cursor, key)) return undefined;
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

/** Laravel's displayable name of a field: snake case, then spaces (`publishNow`, `publish_now`: "publish now"). */
export const attributeOf = (path: PropertyKey[]) =>
  path
    .map(String)
    .join(".")
    .replaceAll(/(.)(?=[A-Z])/g, "$1_")
    .toLowerCase()
    .replaceAll("_", " ") || "body";

/** A field the request's schema does not know, at any depth: never dropped, always named. */
export const notAllowedMessage = (path: PropertyKey[]) => `The ${attributeOf(path)} field is not allowed.`;

export function issueMessage(issue: Issue, input: unknown): string {
  const attribute = attributeOf(issue.path);
  if (issue.message.includes(":attribute")) return issue.message.replaceAll(":attribute", attribute);
  // Messages written in our schemas are already in this style; zod's defaults are not.
  if (issue.message.startsWith("The ")) return issue.message;
  const field = `The ${attribute} field`;
  const value = valueAt(input, issue.path);
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
    case "custom":
      return issue.message;
    default:
      return `${field} is invalid.`;
  }
}

/**
 * Every message by field (`content.0.media.1`), without repeats. The map has no prototype: its keys come
 * from the request (`constructor`, `__proto__` are field names like any other).
 */
export function messagesByField(issues: readonly Issue[], input: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = Object.create(null);
  const add = (key: string, message: string) => {
    const list = Object.hasOwn(errors, key) ? errors[key]! : [];
    if (!list.includes(message)) list.push(message);
    // defineProperty: a plain assignment to `__proto__` would not make a key, even here.
    Object.defineProperty(errors, key, { value: list, enumerable: true, writable: true, configurable: true });
  };
  for (const issue of issues) {
    // Each unknown key, at any depth, is its own field's error: `{"content.0.foo": ["The content.0.foo
    // field is not allowed."]}`, as a strict query's (GET /api/v1/posts?foo=) or a top-level field's.
    if (issue.code === "unrecognized_keys") {
      for (const name of issue.keys) {
        const path = [...issue.path, name];
        add(path.map(String).join("."), notAllowedMessage(path));
      }
      continue;
    }
    add(issue.path.map(String).join(".") || "body", issueMessage(issue, input));
  }
  return errors;
}
