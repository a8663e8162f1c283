// The API key lifecycle of the operator API: list (prefix, never the key; last use), revoke, roll.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, serverTiming } from "../support/client";
import { createKey, createTenant, createUser, inMinutes } from "../support/seed";
import { waitFor } from "../support/wait";

const listKeys = async (userId: number) => {
  const res = await admin("GET", `/users/${userId}/api-keys`);
  expect(res.status).toBe(200);
  return res.body.data as Array<Record<string, any>>;
};

const workspaces = (key: string) => call("GET", "/api/v1/workspaces", { key });

const signingSecretOf = async (keyId: number) =>
  (
    await env.DB.prepare("SELECT signing_secret_enc FROM api_keys WHERE id = ?")
      .bind(keyId)
      .first<{ signing_secret_enc: string | null }>()
  )?.signing_secret_enc;

describe("GET /admin/v1/users/{id}/api-keys", () => {
  it("lists the user's keys oldest first, with the prefix and never the key", async () => {
    const user = await createUser();
    const expiresAt = inMinutes(60);
    const first = await admin("POST", "/api-keys", { user_id: user.id, name: "CI", abilities: ["posts"] });
    const second = await createKey(user.id, ["labels", "accounts"], expiresAt);
    const res = await admin("GET", `/users/${user.id}/api-keys`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: first.body.id,
        name: "CI",
        prefix: first.body.key.slice(0, 12),
        abilities: ["posts"],
        expires_at: null,
        last_used_at: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        callback_origins: [],
        mode: "live",
      },
      {
        id: second.id,
        name: "API key",
        prefix: second.key.slice(0, 12),
        abilities: ["labels", "accounts"],
        expires_at: new Date(expiresAt).toISOString(),
        last_used_at: null,
        created_at: expect.any(String),
        callback_origins: [],
        mode: "live",
      },
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(first.body.key);
    expect(text).not.toContain(second.key);
  });

  it("moves last_used_at when the key makes a request, and only for that key", async () => {
    const t = await createTenant();
    const other = await createKey(t.user.id);
    const before = Date.now();
    expect((await workspaces(t.key)).status).toBe(200);
    const [used, unused] = await listKeys(t.user.id);
    expect(used!.id).toBe(t.keyId);
    const firstUse = Date.parse(used!.last_used_at);
    expect(firstUse).toBeGreaterThanOrEqual(before);
    expect(unused).toMatchObject({ id: other.id, last_used_at: null });
    // The next use must fall on a later millisecond.
    await waitFor(() => Date.now() > firstUse, { what: "the clock past the first use" });
    expect((await workspaces(t.key)).status).toBe(200);
    const [again] = await listKeys(t.user.id);
    expect(Date.parse(again!.last_used_at)).toBeGreaterThan(firstUse);
  });

  it("answers an empty list for a user without keys, without calling the Coordinator", async () => {
    const user = await createUser();
    const res = await admin("GET", `/users/${user.id}/api-keys`);
    expect(res.body).toEqual({ data: [] });
    expect(serverTiming(res.headers).gateCalls).toBe(0);
  });

  it("404 for an unknown user, 422 for a non-numeric id", async () => {
    const unknown = await admin("GET", "/users/99999999/api-keys");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "User not found." });
    const bad = await admin("GET", "/users/abc/api-keys");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
  });
});

describe("DELETE /admin/v1/api-keys/{id}", () => {
  it("revokes the key at once; the user's other keys keep working", async () => {
    const t = await createTenant();
    const other = await createKey(t.user.id);
    expect((await workspaces(t.key)).status).toBe(200);
    const res = await admin("DELETE", `/api-keys/${t.keyId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "API key revoked successfully." });
    const refused = await workspaces(t.key);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: "Unauthenticated." });
    expect((await workspaces(other.key)).status).toBe(200);
    expect((await listKeys(t.user.id)).map((k) => k.id)).toEqual([other.id]);
  });

  it("404 for an unknown or already revoked key, 422 for a non-numeric id", async () => {
    const t = await createTenant();
    expect((await admin("DELETE", `/api-keys/${t.keyId}`)).status).toBe(200);
    const again = await admin("DELETE", `/api-keys/${t.keyId}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "API key not found." });
    expect((await admin("DELETE", "/api-keys/99999999")).status).toBe(404);
    const bad = await admin("DELETE", "/api-keys/abc");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
  });
});

describe("POST /admin/v1/api-keys/{id}/roll", () => {
  it("replaces the key in one round trip: the old key is refused, the new one has the same grants", async () => {
    const user = await createUser();
    const expiresAt = inMinutes(60);
    const old = await admin("POST", "/api-keys", {
      user_id: user.id,
      name: "Scheduler",
      abilities: ["labels"],
      expires_at: expiresAt,
    });
    expect((await call("GET", "/api/v1/labels", { key: old.body.key })).status).toBe(200);
    const [before] = await listKeys(user.id);

    const rolled = await admin("POST", `/api-keys/${old.body.id}/roll`);
    expect(rolled.status).toBe(201);
    expect(rolled.body).toEqual({ id: expect.any(Number), key: expect.stringMatching(/^spk_/) });
    expect(rolled.body.id).not.toBe(old.body.id);
    expect(rolled.body.key).not.toBe(old.body.key);
    expect(serverTiming(rolled.headers).dbTrips).toBe(1);

    const refused = await call("GET", "/api/v1/labels", { key: old.body.key });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: "Unauthenticated." });
    expect((await call("GET", "/api/v1/labels", { key: rolled.body.key })).status).toBe(200);
    // Same abilities: still no access to what the old key could not reach.
    expect((await call("GET", "/api/v1/workspaces", { key: rolled.body.key })).status).toBe(403);

    expect(await listKeys(user.id)).toEqual([
      {
        ...before,
        id: rolled.body.id,
        prefix: rolled.body.key.slice(0, 12),
        last_used_at: expect.any(String),
        created_at: expect.any(String),
      },
    ]);
    expect((await listKeys(user.id))[0]!.expires_at).toBe(new Date(expiresAt).toISOString());
  });

  it("keeps the key's signing secret, and rolling leaves it no key to revoke twice", async () => {
    const t = await createTenant();
    expect((await admin("POST", `/api-keys/${t.keyId}/signing-secret`)).status).toBe(201);
    const sealed = await signingSecretOf(t.keyId);
    expect(sealed).toBeTruthy();
    const rolled = await admin("POST", `/api-keys/${t.keyId}/roll`);
    expect(await signingSecretOf(rolled.body.id)).toBe(sealed);
    expect(await signingSecretOf(t.keyId)).toBeUndefined();
    expect((await admin("POST", `/api-keys/${t.keyId}/roll`)).status).toBe(404);
  });

  it("404 for an unknown key, 422 for a non-numeric id", async () => {
    const unknown = await admin("POST", "/api-keys/99999999/roll");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "API key not found." });
    const bad = await admin("POST", "/api-keys/1e3/roll");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
  });
});

describe("the key lifecycle routes need the operator token", () => {
  it.each([
    ["GET", "/admin/v1/users/1/api-keys"],
    ["DELETE", "/admin/v1/api-keys/1"],
    ["POST", "/admin/v1/api-keys/1/roll"],
  ])("%s %s answers 401 without it or with an API key", async (method, path) => {
    const t = await createTenant();
    for (const key of [null, t.key]) {
      const res = await call(method, path, { key });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
  });
});
