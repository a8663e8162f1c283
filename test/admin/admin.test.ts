import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN_TOKEN, admin, call } from "../support/client";
import { createUser, createWorkspace } from "../support/seed";

describe("operator API access", () => {
  it("401 without the admin token or with a wrong one", async () => {
    expect(
      (await call("POST", "/admin/v1/users", { body: { name: "x", email: "x@example.test" } })).status,
    ).toBe(401);
    const wrong = await call("POST", "/admin/v1/users", { key: `${ADMIN_TOKEN}x`, body: {} });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: "Unauthenticated." });
  });

  it("does not exist (404) when ADMIN_TOKEN is not configured", async () => {
    const request = new Request("https://api.example.test/admin/v1/users", {
      method: "POST",
      headers: { authorization: "Bearer ", "content-type": "application/json" },
      body: JSON.stringify({ name: "x", email: "x@example.test" }),
    });
    const res = await worker.fetch(request, { ...env, ADMIN_TOKEN: "" }, createExecutionContext());
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Route not found." });
  });
});

describe("POST /admin/v1/users", () => {
  it("creates a user and refuses a second one with the same email", async () => {
    const email = `Ada-${crypto.randomUUID()}@Example.test`;
    const res = await admin("POST", "/users", { name: "Ada", email });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Ada",
      email: email.toLowerCase(),
      subscription: "active",
    });
    const again = await admin("POST", "/users", { name: "Ada", email });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({
      message: "The email has already been taken.",
      errors: { email: ["The email has already been taken."] },
    });
  });

  it("422 with Laravel-style errors for missing and wrong-typed fields", async () => {
    const res = await admin("POST", "/users", { name: 42 });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "The name field must be a string. (and 1 more error)",
      errors: { name: ["The name field must be a string."], email: ["The email field is required."] },
    });
    const long = await admin("POST", "/users", { name: "x".repeat(256), email: "not-an-email" });
    expect(long.body.errors.name).toEqual(["The name field must not be greater than 255 characters."]);
    expect(long.body.errors.email).toEqual(["The email field format is invalid."]);
  });

  it.each([
    ["malformed JSON", "{not json", "Malformed JSON in request body."],
    ["an array body", "[1,2]", "The request body must be a JSON object."],
    ["a string body", '"text"', "The request body must be a JSON object."],
    ["null", "null", "The request body must be a JSON object."],
  ])("400 for %s", async (_, rawBody, message) => {
    const res = await call("POST", "/admin/v1/users", {
      key: ADMIN_TOKEN,
      rawBody,
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message });
  });

  it("415 for a body that is not sent as JSON", async () => {
    const res = await call("POST", "/admin/v1/users", {
      key: ADMIN_TOKEN,
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
  });
});

describe("POST /admin/v1/workspaces", () => {
  it("creates a workspace with defaults, makes the user a member, and derives unique slugs", async () => {
    const user = await createUser();
    const name = `Acme ${crypto.randomUUID().slice(0, 8)}`;
    const first = await admin("POST", "/workspaces", { user_id: user.id, name });
    expect(first.status).toBe(201);
    const slug = name.toLowerCase().replace(" ", "-");
    expect(first.body).toEqual({
      id: expect.any(Number),
      name,
      slug,
      type: "PERSONAL",
      logo: null,
      timezone: "UTC",
      language: "en",
      mode: "live",
      approval: "none",
    });
    const second = await admin("POST", "/workspaces", { user_id: user.id, name });
    expect(second.body.slug).toBe(`${slug}-2`);
    const member = await env.DB.prepare("SELECT user_id FROM workspace_members WHERE workspace_id = ?")
      .bind(first.body.id)
      .all();
    expect(member.results).toEqual([{ user_id: user.id }]);
  });

  it("422 for an unknown user, a taken slug, a bad zone, type or language", async () => {
    const user = await createUser();
    const ws = await createWorkspace(user.id);
    const taken = await env.DB.prepare("SELECT slug FROM workspaces WHERE id = ?")
      .bind(ws.id)
      .first<{ slug: string }>();
    const unknownUser = await admin("POST", "/workspaces", { user_id: 99_999_999, name: "X" });
    expect(unknownUser.status).toBe(422);
    expect(unknownUser.body.errors).toEqual({ user_id: ["The selected user id is invalid."] });
    const dup = await admin("POST", "/workspaces", { user_id: user.id, name: "X", slug: taken!.slug });
    expect(dup.body.errors).toEqual({ slug: ["The slug has already been taken."] });
    const bad = await admin("POST", "/workspaces", {
      user_id: user.id,
      name: "X",
      timezone: "Mars/Olympus",
      type: "TEAM",
      language: "english!",
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["language", "timezone", "type"]);
    expect(bad.body.errors.type).toEqual(["The selected type is invalid."]);
  });
});

describe("POST /admin/v1/workspaces/{id}/members", () => {
  it("404 for an unknown workspace, 422 for a non-numeric id or unknown user", async () => {
    const user = await createUser();
    expect((await admin("POST", "/workspaces/99999999/members", { user_id: user.id })).status).toBe(404);
    const nonNumeric = await admin("POST", "/workspaces/abc/members", { user_id: user.id });
    expect(nonNumeric.status).toBe(422);
    expect(nonNumeric.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
    const ws = await createWorkspace(user.id);
    const unknown = await admin("POST", `/workspaces/${ws.id}/members`, { user_id: 99_999_999 });
    expect(unknown.status).toBe(422);
    const again = await admin("POST", `/workspaces/${ws.id}/members`, { user_id: user.id });
    expect(again.status).toBe(201);
  });
});

describe("POST /admin/v1/accounts", () => {
  it("creates an account and validates platform and workspace", async () => {
    const user = await createUser();
    const ws = await createWorkspace(user.id);
    const ok = await admin("POST", "/accounts", {
      workspace_id: ws.id,
      platform: "threads",
      username: "ada",
      name: "Ada",
      is_verified: true,
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({
      id: expect.any(Number),
      platform: "threads",
      username: "ada",
      name: "Ada",
      avatar: null,
      workspace_id: ws.id,
      has_expired: false,
      health: { status: "ok", token_expires_at: null, last_refreshed_at: null, last_error: null },
    });
    const bad = await admin("POST", "/accounts", {
      workspace_id: ws.id,
      platform: "myspace",
      username: "a",
      name: "A",
    });
    expect(bad.body.errors).toEqual({ platform: ["The selected platform is invalid."] });
    const noWs = await admin("POST", "/accounts", {
      workspace_id: 99_999_999,
      platform: "twitter",
      username: "a",
      name: "A",
    });
    expect(noWs.body.errors).toEqual({ workspace_id: ["The selected workspace id is invalid."] });
    const huge = await admin("POST", "/accounts", {
      workspace_id: 1e300,
      platform: "twitter",
      username: "a",
      name: "A",
    });
    expect(huge.status).toBe(422);
  });
});

describe("POST /admin/v1/api-keys and signing secrets", () => {
  it("validates abilities and expiry", async () => {
    const user = await createUser();
    const bad = await admin("POST", "/api-keys", {
      user_id: user.id,
      abilities: ["posts", "admin"],
      expires_at: "tomorrow",
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["abilities.1", "expires_at"]);
    const missing = await admin("POST", "/api-keys", { user_id: user.id });
    expect(missing.body.errors).toEqual({ abilities: ["The abilities field is required."] });
  });

  it("creates and regenerates a signing secret, stored encrypted", async () => {
    const user = await createUser();
    const key = await admin("POST", "/api-keys", { user_id: user.id, abilities: ["posts"] });
    const first = await admin("POST", `/api-keys/${key.body.id}/signing-secret`);
    expect(first.status).toBe(201);
    expect(first.body.signing_secret).toMatch(/^sps_[A-Za-z0-9_-]{43}$/);
    const second = await admin("POST", `/api-keys/${key.body.id}/signing-secret`);
    expect(second.body.signing_secret).not.toBe(first.body.signing_secret);
    const row = await env.DB.prepare("SELECT signing_secret_enc FROM api_keys WHERE id = ?")
      .bind(key.body.id)
      .first<{ signing_secret_enc: string }>();
    expect(row!.signing_secret_enc).not.toContain(second.body.signing_secret);
    expect(row!.signing_secret_enc.length).toBeGreaterThan(40);
    expect((await admin("POST", "/api-keys/99999999/signing-secret")).status).toBe(404);
    expect((await admin("POST", "/api-keys/1e3/signing-secret")).status).toBe(422);
  });
});

describe("PUT /admin/v1/users/{id}/subscription", () => {
  it("sets and changes the status; 404 for an unknown user; 422 for an unknown status", async () => {
    const user = await createUser();
    const set = await admin("PUT", `/users/${user.id}/subscription`, { status: "trialing" });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ user_id: user.id, status: "trialing" });
    await admin("PUT", `/users/${user.id}/subscription`, { status: "canceled" });
    const row = await env.DB.prepare("SELECT status FROM subscriptions WHERE user_id = ?")
      .bind(user.id)
      .first();
    expect(row).toEqual({ status: "canceled" });
    expect((await admin("PUT", "/users/99999999/subscription", { status: "active" })).status).toBe(404);
    const bad = await admin("PUT", `/users/${user.id}/subscription`, { status: "gold" });
    expect(bad.body.errors).toEqual({ status: ["The selected status is invalid."] });
  });
});

describe("POST /admin/v1/users: the subscription a user starts with", () => {
  const read = (id: number) =>
    env.DB.prepare("SELECT status FROM subscriptions WHERE user_id = ?").bind(id).first<{ status: string }>();

  it("is active unless the operator says otherwise", async () => {
    const email = `sub-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const res = await admin("POST", "/users", { name: "Ada", email });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Ada", email, subscription: "active" });
    expect(await read(res.body.id)).toEqual({ status: "active" });
  });

  it("takes the operator's status, and refuses an unknown one", async () => {
    const email = `sub-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
    const res = await admin("POST", "/users", { name: "Bo", email, subscription: "none" });
    expect(res.status).toBe(201);
    expect(res.body.subscription).toBe("none");
    expect(await read(res.body.id)).toEqual({ status: "none" });
    const bad = await admin("POST", "/users", { name: "Cy", email: `x${email}`, subscription: "gold" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ subscription: ["The selected subscription is invalid."] });
  });
});
