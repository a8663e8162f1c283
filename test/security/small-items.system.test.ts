// Issue 10, item 9 (and the slug race of item 5): the operator token's length, URL schemes of logos
// and avatars, separate keys for secrets at rest and for HMACs, unique slugs under concurrency.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decryptSecret, encryptSecret, SECRET_FORMAT, secretEquals } from "../../src/lib/crypto";
import { admin, call } from "../support/client";
import { createUser } from "../support/seed";

afterEach(() => vi.restoreAllMocks());

describe("the operator token comparison", () => {
  it("compares equal-length digests whatever the given token's length", async () => {
    const spy = vi.spyOn(crypto.subtle, "timingSafeEqual");
    for (const given of ["x", "test-admin-token", "x".repeat(500)]) {
      const res = await call("GET", "/admin/v1/users?email=a@b.test", { key: given });
      expect(res.status).toBe(given === "test-admin-token" ? 200 : 401);
    }
    expect(spy).toHaveBeenCalledTimes(3);
    for (const [a, b] of spy.mock.calls) {
      expect((a as ArrayBuffer).byteLength).toBe(32);
      expect((b as ArrayBuffer).byteLength).toBe(32);
    }
  });

  it("is right about equal and unequal secrets", async () => {
    expect(await secretEquals("abc", "abc")).toBe(true);
    expect(await secretEquals("abc", "abd")).toBe(false);
    expect(await secretEquals("abc", "abcd")).toBe(false);
  });
});

describe("logo and avatar URLs", () => {
  it.each([
    "javascript:alert(1)",
    "data:image/svg+xml;base64,PHN2Zz4=",
    "file:///etc/passwd",
    "ftp://x.example/a.png",
  ])("refuses %s as a workspace logo and an account avatar", async (url) => {
    const user = await createUser();
    const ws = await admin("POST", "/workspaces", { user_id: user.id, name: "W", logo: url });
    expect(ws.status).toBe(422);
    expect(ws.body.errors.logo).toEqual(["The logo field must be an http or https URL."]);
    const good = await admin("POST", "/workspaces", { user_id: user.id, name: "W2" });
    const account = await admin("POST", "/accounts", {
      workspace_id: good.body.id,
      platform: "twitter",
      username: "u",
      name: "n",
      avatar: url,
    });
    expect(account.status).toBe(422);
    expect(account.body.errors.avatar).toEqual(["The avatar field must be an http or https URL."]);
  });
});

describe("secrets at rest", () => {
  const KEY = env.ENCRYPTION_KEY;

  it("encrypts under a key derived for that purpose, never the raw ENCRYPTION_KEY bytes", async () => {
    const sealed = await encryptSecret(KEY, "sps_secret");
    expect(sealed.startsWith(SECRET_FORMAT)).toBe(true);
    expect(await decryptSecret(KEY, sealed)).toBe("sps_secret");
    // The raw key does not open it.
    const raw = await crypto.subtle.importKey(
      "raw",
      Uint8Array.from(atob(KEY), (c) => c.charCodeAt(0)),
      "AES-GCM",
      false,
      ["decrypt"],
    );
    const bytes = Uint8Array.from(atob(sealed.slice(SECRET_FORMAT.length)), (c) => c.charCodeAt(0));
    await expect(
      crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, raw, bytes.slice(12)),
    ).rejects.toThrow();
  });

  it("still reads secrets written before, under the raw key", async () => {
    const raw = await crypto.subtle.importKey(
      "raw",
      Uint8Array.from(atob(KEY), (c) => c.charCodeAt(0)),
      "AES-GCM",
      false,
      ["encrypt"],
    );
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const body = new Uint8Array(
      await crypto.subtle.encrypt({ name: "AES-GCM", iv }, raw, new TextEncoder().encode("old")),
    );
    const legacy = btoa(String.fromCharCode(...iv, ...body));
    expect(await decryptSecret(KEY, legacy)).toBe("old");
  });
});

describe("workspace slugs under concurrency", () => {
  it("gives six parallel workspaces of one name six distinct slugs, never a 500", async () => {
    const user = await createUser();
    const name = `Race ${crypto.randomUUID().slice(0, 8)}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => admin("POST", "/workspaces", { user_id: user.id, name })),
    );
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.slug)).size).toBe(6);
    const memberships = await env.DB.prepare("SELECT count(*) AS n FROM workspace_members WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(memberships?.n).toBe(6);
  });

  it("lets one of two parallel requests for the same explicit slug win; the other is a 422", async () => {
    const user = await createUser();
    const slug = `taken-${crypto.randomUUID().slice(0, 8)}`;
    const answers = await Promise.all(
      [1, 2].map(() => admin("POST", "/workspaces", { user_id: user.id, name: "W", slug })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.status === 422)!.body.errors.slug).toEqual([
      "The slug has already been taken.",
    ]);
  });
});
