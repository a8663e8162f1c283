// The cron's cleanup of the console's dead rows (src/console/sweep.ts): idle sessions, sessions over
// their lifetime, expired sign-in links and expired passkey challenges and security log events over a year old go; live ones stay; each kind is found through its index.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sweepConsole } from "../../src/console/sweep";
import { createUser } from "../support/seed";

const HOUR = 3600_000;
const DAY = 24 * HOUR;

async function session(userId: number, hash: string, createdAt: number, lastUsedAt: number) {
  await env.DB.prepare(
    "INSERT INTO console_sessions (user_id, id_hash, created_at, last_used_at) VALUES (?, ?, ?, ?)",
  )
    .bind(userId, hash, createdAt, lastUsedAt)
    .run();
}

async function link(userId: number, hash: string, expiresAt: number) {
  await env.DB.prepare("INSERT INTO sign_in_links (user_id, token_hash, expires_at) VALUES (?, ?, ?)")
    .bind(userId, hash, expiresAt)
    .run();
}

describe("the console's sweep", () => {
  it("deletes idle and over-age sessions and expired links, and keeps the live ones", async () => {
    const user = await createUser();
    const now = Date.now();
    const tag = crypto.randomUUID();
    await session(user.id, `${tag}-idle`, now - 2 * DAY, now - 13 * HOUR);
    await session(user.id, `${tag}-old`, now - 31 * DAY, now - HOUR);
    await session(user.id, `${tag}-live`, now - 29 * DAY, now - 11 * HOUR);
    await link(user.id, `${tag}-expired`, now - 1);
    await link(user.id, `${tag}-live`, now + 15 * 60_000);
    for (const [challenge, expiresAt] of [
      [`${tag}-expired`, now - 1],
      [`${tag}-live`, now + 5 * 60_000],
    ] as const)
      await env.DB.prepare(
        "INSERT INTO passkey_challenges (challenge, user_id, expires_at) VALUES (?, NULL, ?)",
      )
        .bind(challenge, expiresAt)
        .run();

    await sweepConsole(env, new Date(now));

    const sessions = await env.DB.prepare("SELECT id_hash FROM console_sessions WHERE user_id = ?")
      .bind(user.id)
      .all<{ id_hash: string }>();
    expect(sessions.results.map((row) => row.id_hash)).toEqual([`${tag}-live`]);
    const links = await env.DB.prepare("SELECT token_hash FROM sign_in_links WHERE user_id = ?")
      .bind(user.id)
      .all<{ token_hash: string }>();
    expect(links.results.map((row) => row.token_hash)).toEqual([`${tag}-live`]);
    const challenges = await env.DB.prepare("SELECT challenge FROM passkey_challenges WHERE challenge LIKE ?")
      .bind(`${tag}-%`)
      .all<{ challenge: string }>();
    expect(challenges.results.map((row) => row.challenge)).toEqual([`${tag}-live`]);
  });

  it("deletes security log events over a year old and keeps the younger ones", async () => {
    const user = await createUser();
    const now = Date.now();
    for (const [label, age] of [
      ["old", 366 * DAY],
      ["young", 364 * DAY],
    ] as const)
      await env.DB.prepare(
        "INSERT INTO security_events (user_id, kind, subject, label, actor, created_at) VALUES (?, 'key_created', 1, ?, 'operator', ?)",
      )
        .bind(user.id, label, now - age)
        .run();
    await sweepConsole(env, new Date(now));
    const events = await env.DB.prepare("SELECT label FROM security_events WHERE user_id = ?")
      .bind(user.id)
      .all<{ label: string }>();
    expect(events.results.map((row) => row.label)).toEqual(["young"]);
  });

  it("finds each kind through the index on the instant that ends it, never by a scan", async () => {
    const plans = await Promise.all(
      [
        "SELECT id FROM console_sessions WHERE last_used_at < 1 ORDER BY last_used_at LIMIT 500",
        "SELECT id FROM console_sessions WHERE created_at < 1 ORDER BY created_at LIMIT 500",
        "SELECT id FROM sign_in_links WHERE expires_at < 1 ORDER BY expires_at LIMIT 500",
        "SELECT id FROM passkey_challenges WHERE expires_at < 1 ORDER BY expires_at LIMIT 500",
        "SELECT id FROM security_events WHERE created_at < 1 ORDER BY created_at LIMIT 500",
      ].map(async (sql) =>
        (await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).all<{ detail: string }>()).results
          .map((row) => row.detail)
          .join("; "),
      ),
    );
    expect(plans[0]).toMatch(/USING (COVERING )?INDEX console_sessions_last_used_at_idx/);
    expect(plans[1]).toMatch(/USING (COVERING )?INDEX console_sessions_created_at_idx/);
    expect(plans[2]).toMatch(/USING (COVERING )?INDEX sign_in_links_expires_at_idx/);
    expect(plans[3]).toMatch(/USING (COVERING )?INDEX passkey_challenges_expires_at_idx/);
    expect(plans[4]).toMatch(/USING (COVERING )?INDEX security_events_created_at_idx/);
  });
});
