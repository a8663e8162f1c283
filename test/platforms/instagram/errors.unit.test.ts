// How the Instagram adapter's failures are classified (src/platforms/meta.ts): Instagram's error codes
// and subcodes (the publishing limit, an anti-spam restriction, server errors), expired tokens,
// throttling, and timeouts before and after a post could exist.
import { describe, expect, it } from "vitest";
import { adapterFor, json, mediaOf, replay } from "../replay";
import { IG_TOKEN, RECORDED } from "./recorded";
import { account, draftOf } from "./support";

const photo = mediaOf({ mime: "image/jpeg", kind: "image" }).media;
const draft = draftOf([{ text: "Golden hour", media: [photo] }]);

/** A publish whose container is made and FINISHED, then `answer` to media_publish. */
const publishing = (answer: Response | Error) =>
  adapterFor(
    "instagram",
    replay(
      json(RECORDED.quota(2)),
      json(RECORDED.container("c1")),
      json(RECORDED.status("c1", "FINISHED")),
      answer,
    ).fetch,
  ).publish(account, draft);

/** A publish whose container call answers `answer`. */
const containerWith = (answer: Response | Error) =>
  adapterFor("instagram", replay(json(RECORDED.quota(2)), answer).fetch).publish(account, draft);

describe("instagram errors", () => {
  it("reads the 24-hour publishing limit as rate limited, retried after an hour", async () => {
    await expect(publishing(json(RECORDED.errors.publishingLimit, 400))).rejects.toMatchObject({
      kind: "rate_limited",
      code: "publishing_limit",
      retryAfterSeconds: 3600,
    });
  });

  it("refuses media Instagram cannot take, quoting its message", async () => {
    const failure = containerWith(json(RECORDED.errors.imageTooLarge, 400));
    await expect(failure).rejects.toMatchObject({ kind: "permanent" });
    await expect(failure).rejects.toThrow(
      "Instagram media container: HTTP 400: The image size is too large.",
    );
  });

  it("reads code 4 with the anti-spam subcode as a permanent restriction, not a throttle", async () => {
    await expect(containerWith(json(RECORDED.errors.restricted, 400))).rejects.toMatchObject({
      kind: "permanent",
      code: "restricted",
    });
  });

  it("retries Instagram's server errors", async () => {
    await expect(containerWith(json(RECORDED.errors.serverError, 400))).rejects.toMatchObject({
      kind: "transient",
    });
    await expect(containerWith(json({ error: { message: "x", code: 1 } }, 500))).rejects.toMatchObject({
      kind: "transient",
    });
  });

  it("reads an expired token as auth, never quoting the token", async () => {
    const failure = containerWith(json(RECORDED.errors.expired, 400));
    await expect(failure).rejects.toMatchObject({ kind: "auth", code: "token_expired" });
    await expect(failure).rejects.not.toThrow(IG_TOKEN);
  });

  it("reads a user throttle as rate limited", async () => {
    await expect(containerWith(json(RECORDED.errors.userLimit, 400))).rejects.toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 300,
    });
  });

  it("leaves a publish whose answer was lost unknown; a lost container call is reconciled too", async () => {
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    await expect(publishing(timeout())).rejects.toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    await expect(containerWith(new TypeError("Network connection lost."))).rejects.toMatchObject({
      kind: "unknown_outcome",
      code: "network_error",
    });
  });

  it("needs the account's token", async () => {
    const adapter = adapterFor("instagram", replay().fetch);
    await expect(adapter.publish({ ...account, accessToken: null }, draft)).rejects.toMatchObject({
      kind: "auth",
      code: "token_missing",
    });
  });
});
