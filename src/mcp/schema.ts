// A tool's input schema, written from its route's zod schemas: the path ids (positive integers), the
// query's fields and the body's, side by side in one object, and `idempotency_key` on writes. The
// route's own validation still decides (call.ts sends the arguments to it), so this schema only tells
// the agent what to send. No tool takes an argument its schema does not name (`additionalProperties:
// false`): the route or call.ts refuses it.
import { z } from "zod";
import { pathParams, type ToolSpec } from "./tools";

type JsonSchema = { [key: string]: unknown };
export type ToolInputSchema = JsonSchema & {
  type: "object";
  properties: Record<string, JsonSchema>;
  required?: string[];
};

export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

const idempotencyKey = (spec: ToolSpec): JsonSchema => ({
  type: "string",
  minLength: 1,
  maxLength: 255,
  description:
    spec.writes === "creates"
      ? "Sent as the Idempotency-Key header: the same key with the same arguments replays the first answer instead of doing it twice (for 24 hours); with other arguments it is refused (422)."
      : "Sent as the Idempotency-Key header. This call is repeatable by nature (the same call again changes nothing more, or answers 404 once the thing is gone), so the service does not record the key.",
});

/** A zod object as the JSON Schema of what a client sends (query values as the JSON types they mean). */
function inputSchemaOf(schema: z.ZodObject): ToolInputSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", target: "draft-2020-12" });
  const { $schema: _ignored, ...top } = json as JsonSchema;
  // A body named for the OpenAPI document (`.meta({ id })`) comes out as a `$ref` into `$defs`: the tool
  // wants the object itself at the top (the other definitions stay beside it for inner references).
  const root = typeof top.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(top.$ref)?.[1] : undefined;
  const defs = top.$defs as Record<string, JsonSchema> | undefined;
  const { $ref: _ref, ...rest } = root && defs?.[root] ? { ...defs[root], $defs: defs } : top;
  return {
    ...rest,
    type: "object",
    properties: (rest.properties as Record<string, JsonSchema> | undefined) ?? {},
  } as ToolInputSchema;
}

/**
 * A query's fields are text on the wire, documented as the JSON types they mean (`meta({ type })`):
 * an agent sends those types, so the text-only checks (a digits pattern, the spellings of a flag) go.
 */
function queryField(field: JsonSchema): JsonSchema {
  if (Array.isArray(field.anyOf)) return { ...field, anyOf: field.anyOf.map(queryField) };
  const { pattern: _pattern, enum: _spellings, ...rest } = field;
  return field.type === "integer" || field.type === "boolean" ? rest : field;
}

/** The tool's whole input: path ids, then the query's or the body's fields, then `idempotency_key`. */
export function toolInputSchema(spec: ToolSpec): ToolInputSchema {
  const ids = pathParams(spec);
  const fields = spec.body ?? spec.query;
  const own = fields ? inputSchemaOf(fields) : { type: "object" as const, properties: {} };
  if (!spec.body)
    own.properties = Object.fromEntries(Object.entries(own.properties).map(([k, v]) => [k, queryField(v)]));
  const properties: Record<string, JsonSchema> = {
    ...Object.fromEntries(
      ids.map((id) => [
        id,
        spec.idSchema ?? {
          type: "integer",
          minimum: 1,
          description: `The ${id === "id" ? "" : `${id} `}id.`,
        },
      ]),
    ),
    ...own.properties,
    ...(spec.writes ? { [IDEMPOTENCY_ARGUMENT]: idempotencyKey(spec) } : {}),
  };
  const required = [...ids, ...(own.required ?? [])];
  return {
    ...own,
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}
