// How the X adapter's failures are classified: X's duplicate-content and invalid-request refusals with
// its own words, 5xx and timeouts, its rate limits (15-minute window, 24-hour posting limits, usage
// caps) with their reset times, and an expired or revoked token.
import { describe, expect, it } from "vitest";
import { USAGE_CAP_RETRY_SECONDS } from "../../../src/platforms/twitter/api";
import { json } from "../live/harness";
import { adapterFor, replay } from "../replay";
import {
  duplicate,
  invalidRequest,
  serviceUnavailable,
  tooMany,
  unauthorized,
  usageCapped,
} from "./recorded";
import { account, draftOf, failureOf, item } from "./support";

const publishWith = (answer: Response | Error) =>
  failureOf(adapterFor("twitter", replay(answer).fetch).publish(account, draftOf([item("Hello")])));
const insightsWith = (answer: Response | Error) =>
  failureOf(adapterFor("twitter", replay(answer).fetch).insights(account, "1346889436626259968"));

const inSeconds = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

describe("X failures", () => {
  it("duplicate content is permanent, with X's message", async () => {
    const error = await publishWith(json(duplicate, 403));
    expect(error).toMatchObject({ kind: "permanent", code: "duplicate_content" });
    expect(error.message).toBe(
      "X (Twitter) publish: HTTP 403: You are not allowed to create a Tweet with duplicate content.",
    );
  });

  it("an invalid request is permanent and quotes both X's detail and its specific error", async () => {
    const error = await publishWith(json(invalidRequest, 400));
    expect(error).toMatchObject({ kind: "permanent", code: "invalid_request" });
    expect(error.message).toBe(
      "X (Twitter) publish: HTTP 400: One or more parameters to your request was invalid. Your Tweet cannot be posted because the Tweet you are replying to has been deleted.",
    );
  });

  it("5xx is transient", async () => {
    expect(await publishWith(json(serviceUnavailable, 503))).toMatchObject({
      kind: "transient",
      code: "server_error",
    });
  });

  it("a timeout is an unknown outcome for a post, transient for a read", async () => {
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    expect(await publishWith(timeout())).toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    expect(await insightsWith(timeout())).toMatchObject({ kind: "transient", code: "timeout" });
  });

  it("an answer to a post that is not X's is an unknown outcome (the post may exist)", async () => {
    expect(await publishWith(json({ data: {} }, 201))).toMatchObject({
      kind: "unknown_outcome",
      code: "invalid_response",
    });
  });

  it("a 429 waits for the 15-minute window's reset (x-rate-limit-reset)", async () => {
    const error = await publishWith(
      json(tooMany, 429, {
        "x-rate-limit-limit": "100",
        "x-rate-limit-remaining": "0",
        "x-rate-limit-reset": inSeconds(900),
      }),
    );
    expect(error).toMatchObject({ kind: "rate_limited", code: "rate_limited" });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(898);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(900);
  });

  it("a 429 from the 24-hour posting limit waits for that limit's reset, not the window's", async () => {
    const error = await publishWith(
      json(tooMany, 429, {
        "x-rate-limit-remaining": "99",
        "x-rate-limit-reset": inSeconds(600),
        "x-user-limit-24hour-limit": "100",
        "x-user-limit-24hour-remaining": "0",
        "x-user-limit-24hour-reset": inSeconds(20_000),
      }),
    );
    expect(error).toMatchObject({ kind: "rate_limited", code: "rate_limited" });
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(19_998);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(20_000);
  });

  it("a usage cap is rate limited for a day (X names no reset), whatever its status", async () => {
    const headers = { "x-rate-limit-remaining": "39999", "x-rate-limit-reset": inSeconds(600) };
    for (const status of [429, 403]) {
      const error = await publishWith(json(usageCapped, status, headers));
      expect(error).toMatchObject({
        kind: "rate_limited",
        code: "usage_cap_exceeded",
        retryAfterSeconds: USAGE_CAP_RETRY_SECONDS,
      });
      expect(error.message).toContain("Usage cap exceeded: Monthly product cap");
    }
  });

  it("depleted pay-per-use credits (402) are rate limited for a day", async () => {
    const error = await publishWith(
      json({ title: "CreditsDepleted", detail: "Your credits are depleted." }, 402),
    );
    expect(error).toMatchObject({
      kind: "rate_limited",
      code: "credits_depleted",
      retryAfterSeconds: USAGE_CAP_RETRY_SECONDS,
    });
  });

  it("an expired or revoked token is an auth failure", async () => {
    expect(await publishWith(json(unauthorized, 401))).toMatchObject({ kind: "auth", code: "unauthorized" });
    expect(await insightsWith(json(unauthorized, 401))).toMatchObject({ kind: "auth" });
  });

  it("an account without a token is an auth failure, before any call", async () => {
    const { fetch, requests } = replay();
    const error = await failureOf(
      adapterFor("twitter", fetch).publish({ ...account, accessToken: null }, draftOf([item("Hello")])),
    );
    expect(error).toMatchObject({ kind: "auth", code: "token_missing" });
    expect(requests).toHaveLength(0);
  });
});
