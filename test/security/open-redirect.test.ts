// Issue 10, item 4: the service's own origin redirected to any https `callback_url` (for 24 hours after
// a link was used), and its delegation callback revealed an application's `state` without checking the
// flow's secret. Operators now register allowed callback origins per API key, and the callback checks the
// secret before anything else.

import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp, createSession, locationOf, runFlow, SESSIONS } from "../delegation/support";
import { admin, call, ORIGIN } from "../support/client";

const setOrigins = (keyId: number, callback_origins: string[]) =>
  admin("PUT", `/api-keys/${keyId}/callback-origins`, { callback_origins });

describe("callback origins registered per API key", () => {
  it("refuses a callback_url outside the key's registered origins (422 invalid_request)", async () => {
    const app = await createApp();
    const set = await setOrigins(app.keyId, ["https://app.example.test", "http://localhost:3000"]);
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      id: app.keyId,
      callback_origins: ["https://app.example.test", "http://localhost:3000"],
    });
    const refused = await call("POST", SESSIONS, {
      key: app.key,
      body: { platform: "twitter", callback_url: "https://evil.example/phish", state: "s1" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("invalid_request");
    expect(refused.body.errors.callback_url).toEqual([
      "The callback url's origin is not one registered for this API key.",
    ]);
    for (const callback_url of ["https://app.example.test/cb?x=1", "http://localhost:3000/cb"]) {
      const ok = await call("POST", SESSIONS, {
        key: app.key,
        body: { platform: "twitter", callback_url, state: "s2" },
      });
      expect(ok.status).toBe(200);
    }
  });

  it("is listed with the key, kept when the key is rolled, and cleared with an empty list", async () => {
    const app = await createApp();
    await setOrigins(app.keyId, ["https://app.example.test"]);
    const listed = await admin("GET", `/users/${app.userId}/api-keys`);
    expect(listed.body.data[0].callback_origins).toEqual(["https://app.example.test"]);
    const rolled = await admin("POST", `/api-keys/${app.keyId}/roll`);
    const refused = await call("POST", SESSIONS, {
      key: rolled.body.key,
      body: { platform: "twitter", callback_url: "https://evil.example/", state: "s" },
    });
    expect(refused.status).toBe(422);
    const cleared = await setOrigins(rolled.body.id, []);
    expect(cleared.body.callback_origins).toEqual([]);
  });

  it("refuses origins that are not plain origins", async () => {
    const app = await createApp();
    for (const bad of [
      "https://app.example.test/path",
      "javascript:alert(1)",
      "ftp://x.example",
      "https://u:p@x.example",
    ]) {
      const res = await setOrigins(app.keyId, [bad]);
      expect(res.status).toBe(422);
    }
  });
});

describe("the delegation callback checks the flow's secret first", () => {
  it("answers a callback with a wrong secret for a completed flow with the invalid-link page, not a redirect to the app", async () => {
    const app = await createApp();
    const state = `app-state-${crypto.randomUUID()}`;
    const authorizeUrl = await createSession(app, { state });
    const { steps } = await runFlow(authorizeUrl);
    // The flow's genuine (signed) id, with a secret of the caller's own.
    const signedId = new URL(locationOf(steps.decision)).searchParams.get("state")!.split(".")[0];
    const forged = `${ORIGIN}/api/oauth/delegate/callback?state=${signedId}.${"A".repeat(43)}&code=x`;
    const res = await exports.default.fetch(forged, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).not.toContain(state);
  });
});
