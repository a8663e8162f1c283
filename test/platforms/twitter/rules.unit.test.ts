// X's weighted character count (docs.x.com › Fundamentals › Counting characters, by X's own twitter-text),
// which the adapter's check and the sandbox's X emulator each state: checked here against the doc's
// examples and against each other.
import { describe, expect, it } from "vitest";
import { twitter } from "../../../src/platforms/twitter";
import { WEIGHTED_LIMIT, weightedLength, withoutLinks } from "../../../src/platforms/twitter/rules";
import { CONNECT_SCOPES } from "../../../src/platforms/twitter/token";
import * as emulator from "../../../src/sandbox/twitter/rules";
import { GRANTED_SCOPES, twitterShape } from "../../../src/sandbox/twitter/token";

const EXAMPLES: Array<[string, number]> = [
  ["a".repeat(280), 280],
  ["字".repeat(140), 280],
  ["字".repeat(141), 282],
  ["😀", 2],
  ["👩‍👩‍👧", 2],
  ["see https://example.com/a/very/long/path/that/goes/on?and=on", 4 + 23],
  ["e\u0301", 1],
  // Dashes and curly quotes are in the light ranges; the ellipsis (U+2026) is not.
  ["—“quotes”…", 11],
  ["example.com/path", 23],
  [`${"a".repeat(260)} x.co/a`, 284],
];

describe("weightedLength", () => {
  it("counts Latin text by code point, CJK and emoji as 2, every link as 23, after NFC", () => {
    expect(WEIGHTED_LIMIT).toBe(280);
    for (const [text, length] of EXAMPLES.slice(0, 8)) expect(weightedLength(text)).toBe(length);
  });

  it("counts a link without a scheme as 23, as X shortens it to t.co", () => {
    expect(weightedLength("example.com/path")).toBe(23);
    expect(weightedLength(`${"a".repeat(260)} x.co/a`)).toBe(284);
  });

  it("the emulator counts as the adapter does", () => {
    expect(emulator.WEIGHTED_LIMIT).toBe(WEIGHTED_LIMIT);
    for (const [text, length] of EXAMPLES) expect(emulator.weightedLength(text)).toBe(length);
  });

  it("leaves out every link X shortens, with or without a scheme", () => {
    expect(withoutLinks("Read example.com/launch and https://x.com/a today")).toBe("Read   and   today");
    expect(emulator.linksOf("Read example.com/launch").map((link) => link.url)).toEqual([
      "example.com/launch",
    ]);
  });
});

describe("the emulator's OAuth facts against the adapter's", () => {
  it("grants every scope a connect asks for, refuses with a denial the adapter reads, answers a token it parses", () => {
    for (const scope of CONNECT_SCOPES) expect(GRANTED_SCOPES).toContain(scope);
    expect(twitter.denialErrors).toContain(twitterShape.denial);
    const answer = twitterShape.tokenResponse(
      {
        grant: "authorization_code",
        accessToken: "a",
        expiresIn: 7200,
        refreshToken: "r",
        refreshExpiresIn: null,
        scopes: null,
      },
      "1",
    );
    expect(twitter.parseToken(answer)).toMatchObject({
      accessToken: "a",
      refreshToken: "r",
      expiresIn: 7200,
    });
    expect((answer as { scope: string }).scope).toBe(GRANTED_SCOPES.join(" "));
  });

  it("answers the scopes the user granted, as X does, when the consent asked for fewer", () => {
    const answer = twitterShape.tokenResponse(
      {
        grant: "authorization_code",
        accessToken: "a",
        expiresIn: 7200,
        refreshToken: null,
        refreshExpiresIn: null,
        scopes: ["tweet.read", "users.read"],
      },
      "1",
    ) as { scope: string };
    expect(answer.scope).toBe("tweet.read users.read");
  });
});
