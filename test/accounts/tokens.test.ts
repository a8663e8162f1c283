// Keeping tokens alive (src/accounts/tokens.ts): an account connected through the sandbox (X, whose
// refresh tokens rotate) has its token refreshed before a publish when it expires within five minutes,
// at most once under concurrency (the account's Coordinator), once after a 401, and is marked expired
// when the platform refuses its refresh token for good; a reconnect clears that.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountAuth, refreshStoredToken, TOKEN_TOO_YOUNG } from "../../src/accounts/tokens";
import { decryptSecret, encryptSecret } from "../../src/lib/crypto";
import { PlatformError } from "../../src/platforms/types";
import { deliver as deliverSync } from "../analytics/queue";
import { connectInto } from "../delegation/support";
import { deliver, publishingPost, rowsOf, sandboxPosts } from "../publishing/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

type Tenant = Awaited<ReturnType<typeof createTenant>>;

type Stored = {
  id: number;
  username: string;
  platform_user_id: string | null;
  access_token_enc: string | null;
  refresh_token_enc: string | null;
  token_expires_at: number | null;
  expired_at: number | null;
};

const stored = async (id: number) =>
  (await env.DB.prepare("SELECT * FROM accounts WHERE id = ?").bind(id).first<Stored>())!;

const plain = (encrypted: string | null) => decryptSecret(env.ENCRYPTION_KEY, encrypted!);

const expireIn = (id: number, ms: number) =>
  env.DB.prepare("UPDATE accounts SET token_expires_at = ? WHERE id = ?")
    .bind(Date.now() + ms, id)
    .run();

/** How many X refresh tokens the sandbox has seen spent (X rotates them: one per accepted refresh). */
const spentRefreshes = () =>
  runInDurableObject(env.SANDBOX_STORE.getByName("twitter"), async (_instance, state) => {
    const [row] = state.storage.sql
      .exec<{ n: number }>("SELECT count(*) AS n FROM spent WHERE id LIKE 'refresh:%'")
      .toArray();
    return row!.n;
  });

async function publishTo(t: Tenant, accountId: number) {
  const postId = await publishingPost(t, { accounts: [accountId], content: [{ text: `Hi ${accountId}` }] });
  await deliver([{ post_id: postId }]);
  return { postId, rows: await rowsOf(postId) };
}

describe("account tokens", () => {
  it("refreshes a token expiring within five minutes before publishing, and stores the new one", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "refresh_first");
    const before = await stored(id);
    await expireIn(id, 60_000);
    const spent = await spentRefreshes();

    const { rows } = await publishTo(t, id);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await sandboxPosts("twitter", id)).toHaveLength(1);
    const after = await stored(id);
    expect(await plain(after.access_token_enc)).not.toBe(await plain(before.access_token_enc));
    // X rotates refresh tokens.
    expect(await plain(after.refresh_token_enc)).not.toBe(await plain(before.refresh_token_enc));
    expect(after.token_expires_at).toBeGreaterThan(Date.now() + 3600_000);
    expect(after.expired_at).toBeNull();
    expect(await spentRefreshes()).toBe(spent + 1);
  });

  it("leaves a token far from expiry alone", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "fresh_enough");
    const before = await stored(id);
    const { rows } = await publishTo(t, id);
    expect(rows[0]!.status).toBe("PUBLISHED");
    expect((await stored(id)).access_token_enc).toBe(before.access_token_enc);
  });

  it("sends one refresh to the platform for 10 parallel callers, and all get the new token", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "parallel");
    await expireIn(id, 60_000);
    const row = await stored(id);
    const old = await plain(row.access_token_enc);
    const spent = await spentRefreshes();
    const tokens = {
      accountId: id,
      username: row.username,
      platformUserId: row.platform_user_id,
      accessTokenEnc: row.access_token_enc,
      refreshTokenEnc: row.refresh_token_enc,
      tokenExpiresAt: new Date(row.token_expires_at!),
      expiredAt: null,
    };

    const auths = await Promise.all(Array.from({ length: 10 }, () => accountAuth(env, tokens)));

    const after = await stored(id);
    const fresh = await plain(after.access_token_enc);
    expect(fresh).not.toBe(old);
    expect(auths.map((a) => a.accessToken)).toEqual(Array(10).fill(fresh));
    // Exactly one refresh reached X: one rotation spent, and no second one refused (that would have
    // marked the account expired).
    expect(await spentRefreshes()).toBe(spent + 1);
    expect(after.expired_at).toBeNull();
  });

  it("refreshes once after a 401 and publishes once", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "rejected");
    // A token X no longer accepts, though the account believes it has hours left.
    const bad = await encryptSecret(env.ENCRYPTION_KEY, "revoked-access-token");
    await env.DB.prepare("UPDATE accounts SET access_token_enc = ? WHERE id = ?").bind(bad, id).run();
    const spent = await spentRefreshes();

    const { rows } = await publishTo(t, id);
    expect(rows[0]).toMatchObject({ status: "PUBLISHED", error: null });
    expect(await sandboxPosts("twitter", id)).toHaveLength(1);
    expect(await spentRefreshes()).toBe(spent + 1);
    const after = await stored(id);
    expect(await plain(after.access_token_enc)).not.toBe("revoked-access-token");
    expect(after.expired_at).toBeNull();
  });

  it("marks the account expired when its refresh token is refused, fails the row, and a reconnect clears it", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "revoked");
    const bad = await encryptSecret(env.ENCRYPTION_KEY, "revoked-refresh-token");
    await env.DB.prepare("UPDATE accounts SET refresh_token_enc = ?, token_expires_at = ? WHERE id = ?")
      .bind(bad, Date.now() + 60_000, id)
      .run();

    const { postId, rows } = await publishTo(t, id);
    expect(rows[0]).toMatchObject({
      status: "FAILED",
      error: { code: "account_expired", message: expect.stringMatching(/reconnect the account/) },
    });
    expect(await sandboxPosts("twitter", id)).toHaveLength(0);
    expect((await stored(id)).expired_at).toBeGreaterThan(0);
    const report = await call("GET", `/api/v1/analytics/posts/${postId}`, { key: t.key });
    expect(report.status).toBe(200);
    expect(report.body.accounts[0].account).toMatchObject({ id, has_expired: true });

    // A later publish fails at once, without asking the platform.
    const spent = await spentRefreshes();
    const again = await publishTo(t, id);
    expect(again.rows[0]!.error).toMatchObject({ code: "account_expired" });
    expect(await spentRefreshes()).toBe(spent);

    expect(await connectInto(t, "revoked")).toBe(id);
    expect((await stored(id)).expired_at).toBeNull();
    const healed = await call("GET", `/api/v1/analytics/posts/${postId}`, { key: t.key });
    expect(healed.body.accounts[0].account).toMatchObject({ id, has_expired: false });
    const third = await publishTo(t, id);
    expect(third.rows[0]!.status).toBe("PUBLISHED");
  });

  it("refreshes once after a 401 in the analytics sync and reads the metrics", async () => {
    const t = await createTenant();
    const id = await connectInto(t, "sync_rejected");
    const { rows } = await publishTo(t, id);
    expect(rows[0]!.status).toBe("PUBLISHED");
    const bad = await encryptSecret(env.ENCRYPTION_KEY, "revoked-access-token");
    await env.DB.prepare("UPDATE accounts SET access_token_enc = ? WHERE id = ?").bind(bad, id).run();
    const spent = await spentRefreshes();

    const result = await deliverSync([rows[0]!.id]);
    expect(result.retryMessages).toHaveLength(0);
    expect(await spentRefreshes()).toBe(spent + 1);
    const synced = await env.DB.prepare(
      "SELECT analytics_synced_at, analytics FROM post_platforms WHERE id = ?",
    )
      .bind(rows[0]!.id)
      .first<{ analytics_synced_at: number | null; analytics: string | null }>();
    expect(synced!.analytics_synced_at).toBeGreaterThan(0);
    expect(JSON.parse(synced!.analytics!)).toHaveProperty("impressions");
    expect(await plain((await stored(id)).access_token_enc)).not.toBe("revoked-access-token");
  });

  it("takes a 401 on a Meta token younger than a day as passing: retried, the account kept; expired once refreshable", async () => {
    const t = await createTenant();
    const id = t.accounts[0]!.id;
    const DAY = 86_400_000;
    const token = "young-long-lived-token";
    const enc = await encryptSecret(env.ENCRYPTION_KEY, token);
    // An Instagram account connected an hour ago: its long-lived token is its own refresh token.
    await env.DB.prepare(
      "UPDATE accounts SET platform = 'instagram', access_token_enc = ?, refresh_token_enc = ?, token_expires_at = ?, updated_at = ? WHERE id = ?",
    )
      .bind(enc, enc, Date.now() + 60 * DAY, Date.now() - DAY / 24, id)
      .run();
    let refreshes = 0;
    const options = {
      rules: { refreshableAfter: 86_400 },
      // Meta: "the token must be at least 24 hours old", or a token it no longer accepts.
      refresh: async () => {
        refreshes++;
        throw new PlatformError("Instagram refused the token.", { kind: "auth", code: "token_rejected" });
      },
    };

    expect(await refreshStoredToken(env, id, token, options)).toMatchObject({
      kind: "failed",
      failure: "transient",
      code: TOKEN_TOO_YOUNG,
    });
    expect(refreshes).toBe(0);
    const kept = await env.DB.prepare("SELECT expired_at, last_error FROM accounts WHERE id = ?")
      .bind(id)
      .first<{ expired_at: number | null; last_error: string }>();
    expect(kept!.expired_at).toBeNull();
    expect(JSON.parse(kept!.last_error)).toMatchObject({ code: TOKEN_TOO_YOUNG });

    // A day on, the token is refreshable: refused again, and its refresh refused, the account expires.
    await env.DB.prepare("UPDATE accounts SET updated_at = ? WHERE id = ?")
      .bind(Date.now() - DAY - 60_000, id)
      .run();
    expect(await refreshStoredToken(env, id, token, options)).toEqual({ kind: "expired" });
    expect(refreshes).toBe(1);
    expect((await stored(id)).expired_at).toBeGreaterThan(0);
  });
});
