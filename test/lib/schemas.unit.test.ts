// The one id rule: JSON body ids, query ids and path ids accept the same integers and refuse the rest
// with the same message.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidInput } from "../../src/http/errors";
import { bodyId, queryInt, textId } from "../../src/lib/schemas";

const messageOf = (schema: z.ZodType, value: unknown) => {
  const parsed = z.object({ workspace_id: schema }).safeParse({ workspace_id: value });
  if (parsed.success) return parsed.data.workspace_id;
  return invalidInput(parsed.error, { workspace_id: value }).body.errors?.workspace_id;
};

const REFUSED = ["The workspace id field must be a positive integer."];

describe("textId (ids in queries and paths)", () => {
  it.each(["1", "42", "9007199254740991"])("accepts %s", (text) => {
    expect(messageOf(textId(), text)).toBe(Number(text));
  });

  it.each([
    "0x1",
    "1e1",
    "1.0",
    " 7 ",
    "007",
    "0",
    "-2",
    "+3",
    "",
    "abc",
    "9007199254740992",
    "99999999999999999",
  ])("refuses %j with the shared message", (text) => {
    expect(messageOf(textId(), text)).toEqual(REFUSED);
  });
});

describe("bodyId (ids in JSON bodies)", () => {
  it.each([1, 42, Number.MAX_SAFE_INTEGER])("accepts %s", (value) => {
    expect(messageOf(bodyId(), value)).toBe(value);
  });

  it.each([0, -1, 1.5, Number.MAX_SAFE_INTEGER + 1, 1e300, "1", "0x1", null, true])(
    "refuses %j with the shared message",
    (value) => {
      expect(messageOf(bodyId(), value)).toEqual(REFUSED);
    },
  );

  it("says a missing id is required, in bodies and queries alike", () => {
    expect(messageOf(bodyId(), undefined)).toEqual(["The workspace id field is required."]);
    expect(messageOf(textId(), undefined)).toEqual(["The workspace id field is required."]);
  });
});

describe("queryInt", () => {
  it("accepts plain digits within bounds and names the bounds otherwise", () => {
    expect(messageOf(queryInt(1, 100), "100")).toBe(100);
    for (const bad of ["0", "101", "1e2", "0x10", "1.0"])
      expect(messageOf(queryInt(1, 100), bad)).toEqual([
        "The workspace id field must be an integer from 1 to 100.",
      ]);
  });
});
