// How the Facebook adapter's failures are classified (src/platforms/meta.ts): Meta's error codes, its
// usage headers, timeouts before and after a post could exist, and server errors.
import { describe, expect, it } from "vitest";
import { adapterFor, json, replay } from "../replay";
import { PAGE_TOKEN, POST_ID, RECORDED } from "./recorded";
import { draftOf, page, textItem } from "./support";

const publishWith = (answer: Response | Error) =>
  adapterFor("facebook", replay(answer).fetch).publish(page, draftOf([textItem("Hello")]));

describe("facebook errors", () => {
  it("refuses content for good, quoting Facebook's message", async () => {
    const failure = publishWith(json(RECORDED.errors.invalid, 400));
    await expect(failure).rejects.toMatchObject({ kind: "permanent", code: "content_rejected" });
    await expect(failure).rejects.toThrow("Facebook post: HTTP 400: (#100) Invalid parameter");
  });

  it("names a policy block and a duplicate post as permanent", async () => {
    await expect(publishWith(json(RECORDED.errors.blocked, 400))).rejects.toMatchObject({
      kind: "permanent",
      code: "policy_blocked",
    });
    await expect(publishWith(json(RECORDED.errors.duplicate, 400))).rejects.toMatchObject({
      kind: "permanent",
      code: "duplicate_post",
    });
  });

  it("waits what X-Business-Use-Case-Usage says when the Page is throttled", async () => {
    const throttled = new Response(JSON.stringify(RECORDED.errors.throttled), {
      status: 400,
      headers: { "content-type": "application/json", "x-business-use-case-usage": RECORDED.bucUsage },
    });
    await expect(publishWith(throttled)).rejects.toMatchObject({
      kind: "rate_limited",
      code: "rate_limited",
      retryAfterSeconds: 19 * 60,
    });
  });

  it("waits five minutes on an application limit whose headers say nothing", async () => {
    await expect(publishWith(json(RECORDED.errors.appLimit, 403))).rejects.toMatchObject({
      kind: "rate_limited",
      retryAfterSeconds: 300,
    });
  });

  it("reads an expired or revoked token as auth, so the account is refreshed or reconnected", async () => {
    await expect(publishWith(json(RECORDED.errors.expired, 400))).rejects.toMatchObject({
      kind: "auth",
      code: "token_expired",
    });
    // Subcode 458: the user removed the app, final whatever the token's age (src/accounts/tokens.ts).
    const revoked = publishWith(json(RECORDED.errors.revoked, 400));
    await expect(revoked).rejects.toMatchObject({ kind: "auth", code: "token_revoked" });
    await expect(revoked).rejects.not.toThrow(PAGE_TOKEN);
  });

  it("retries Facebook's transient and server errors", async () => {
    await expect(publishWith(json(RECORDED.errors.unknown, 500))).rejects.toMatchObject({
      kind: "transient",
    });
    await expect(
      publishWith(json({ error: { message: "Please retry", code: 2 } }, 400)),
    ).rejects.toMatchObject({
      kind: "transient",
    });
    await expect(
      publishWith(new Response("<html>Bad gateway</html>", { status: 502 })),
    ).rejects.toMatchObject({
      kind: "transient",
      code: "server_error",
    });
  });

  it("leaves a publish whose answer was lost unknown, and a lost read transient", async () => {
    const timeout = () => new DOMException("The operation was aborted due to timeout", "TimeoutError");
    await expect(publishWith(timeout())).rejects.toMatchObject({ kind: "unknown_outcome", code: "timeout" });
    const find = adapterFor("facebook", replay(timeout()).fetch).find(page, { fingerprint: "f", text: "x" });
    await expect(find).rejects.toMatchObject({ kind: "transient", code: "timeout" });
  });

  it("treats an error object in a 200 answer as a refusal", async () => {
    await expect(publishWith(json(RECORDED.errors.invalid, 200))).rejects.toMatchObject({
      kind: "permanent",
    });
  });

  it("reads an accepted publish whose answer is not the documented shape as an unknown outcome", async () => {
    await expect(publishWith(json({ ok: true }))).rejects.toMatchObject({
      kind: "unknown_outcome",
      code: "invalid_response",
    });
  });

  it("fails a sync's comments read on a revoked token as auth", async () => {
    const { fetch } = replay(json(RECORDED.errors.revoked, 400));
    await expect(adapterFor("facebook", fetch).comments!(page, POST_ID)).rejects.toMatchObject({
      kind: "auth",
    });
  });
});
