// A sign-in link's token never reaches the request log: the path is logged with the token replaced.
import { describe, expect, it } from "vitest";
import { redactedPath } from "../../src/http/request-log";

describe("the request log's path", () => {
  it("hides a console sign-in link's token, for the confirmation page and its POST alike", () => {
    const token = `l_${"A".repeat(43)}`;
    expect(redactedPath(`https://api.example.test/console/sign-in/${token}`)).toBe("/console/sign-in/…");
    expect(redactedPath("https://api.example.test/console/sign-in")).toBe("/console/sign-in");
    expect(redactedPath("https://api.example.test/console/keys?x=1")).toBe("/console/keys?…");
  });
});
