// Reading a platform's JSON answer when it is not checked against a schema (error bodies, OAuth answers):
// the value at a key or index of whatever came back, written once for every adapter.

/** The value at `key` (or index) of an object or array, else undefined. */
export const field = (value: unknown, key: string | number): unknown =>
  typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[key] : undefined;

/** The object at `key` of an object, else undefined. */
export const child = (value: unknown, key: string): unknown => field(value, key);

/** A string with something besides whitespace, trimmed; else undefined. */
export const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

/** A string (or a number, as some platforms send ids) at `key` of an object, else undefined. */
export function text(value: unknown, key: string): string | undefined {
  const found = field(value, key);
  if (typeof found === "string" && found !== "") return found;
  if (typeof found === "number" && Number.isFinite(found)) return String(found);
  return undefined;
}
