// The emulators check the scopes a token was granted, as the platforms do: a connect whose consent asked
// for less than a comment call needs gets the platform's own refusal, so an adapter whose connect scopes
// miss a permission fails here (and in every comment test that connects through the consent page) instead
// of in production. Tokens the sandbox mints for tokenless accounts carry every scope.
import { describe, expect, it } from "vitest";
import type { Platform } from "../../src/db/enums";
import { runFlow } from "../delegation/support";
import { call } from "../support/client";
import { createKey, createUser, createWorkspace } from "../support/seed";
import { accountRow, unique } from "./support";

/** Connects `platform`'s account with the consent URL's `scope` less `dropped` (null: as asked); its token. */
async function connectWithout(platform: Platform, dropped: string | null) {
  const user = await createUser();
  const workspace = await createWorkspace(user.id);
  const { key } = await createKey(user.id);
  const started = await call("POST", "/api/v1/accounts/connect", {
    key,
    body: { workspace_id: workspace.id, platform, redirect_url: "https://app.example.test/connected" },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  let asked: string[] = [];
  const flow = await runFlow(started.body.authorize_url, {
    handle: `s${unique()}`,
    consentUrl: (url) => {
      const parsed = new URL(url);
      asked = (parsed.searchParams.get("scope") ?? "").split(/[\s,]+/);
      if (dropped !== null)
        parsed.searchParams.set("scope", asked.filter((scope) => scope !== dropped).join(" "));
      return parsed.toString();
    },
  });
  expect(flow.landed.searchParams.get("status")).toBe("connected");
  // The connect asks for the scope: dropping it is what this test is about.
  if (dropped !== null) expect(asked).toContain(dropped);
  const row = await accountRow(Number(flow.landed.searchParams.get("account_id")));
  return row.accessToken!;
}

/** A call to `platform`'s emulator with `token`, as the adapter would make it; its status and text. */
async function sandbox(platform: Platform, path: string, token: string, init: RequestInit = {}) {
  const body = init.body;
  const answer = await call(init.method ?? "GET", `/sandbox/${platform}${path}`, {
    key: token,
    ...(typeof body === "string" ? { rawBody: body, headers: { "content-type": "application/json" } } : {}),
    ...(body instanceof URLSearchParams ? { rawBody: body } : {}),
  });
  return { status: answer.status, text: JSON.stringify(answer.body) };
}

describe.each([
  {
    platform: "twitter" as const,
    scope: "tweet.moderate.write",
    refusal: "missing scope tweet.moderate.write",
    request: ["/2/tweets/1234567890/hidden", { method: "PUT", body: '{"hidden":true}' }] as const,
  },
  {
    platform: "threads" as const,
    scope: "threads_delete",
    refusal: "(#10) Application does not have permission",
    request: ["/v1.0/1234567890", { method: "DELETE" }] as const,
  },
  {
    platform: "threads" as const,
    scope: "threads_manage_replies",
    refusal: "(#10) Application does not have permission",
    request: [
      "/v1.0/1234567890/manage_reply",
      { method: "POST", body: new URLSearchParams({ hide: "true" }) },
    ] as const,
  },
  {
    platform: "youtube" as const,
    scope: "https://www.googleapis.com/auth/youtube.force-ssl",
    refusal: "insufficient authentication scopes",
    request: ["/youtube/v3/comments?id=Ugx1", { method: "DELETE" }] as const,
  },
  {
    platform: "instagram" as const,
    scope: "instagram_business_manage_comments",
    refusal: "Requires instagram_business_manage_comments",
    request: ["/v25.0/17890000000000001", { method: "DELETE" }] as const,
  },
  {
    // The Page's own token, handed out with the Pages of a user token, keeps what that user granted.
    platform: "facebook" as const,
    scope: "pages_manage_engagement",
    refusal: "Requires pages_manage_engagement",
    request: ["/v25.0/1234567890_1", { method: "DELETE" }] as const,
  },
])("$platform without $scope", ({ platform, scope, request, refusal }) => {
  it("refuses the comment call with the platform's permission error; the full connect passes that check", async () => {
    const [path, init] = request;
    const without = await sandbox(platform, path, await connectWithout(platform, scope), init);
    // Meta's Graph answers a permission error with HTTP 400 on Threads and Instagram (OAuthException).
    expect(without.status).toBe(platform === "threads" || platform === "instagram" ? 400 : 403);
    expect(without.text).toContain(refusal);
    // With every connect scope the same call gets past the permission check (the id names nothing).
    const full = await sandbox(platform, path, await connectWithout(platform, null), init);
    expect(full.text).not.toContain(refusal);
  });
});
