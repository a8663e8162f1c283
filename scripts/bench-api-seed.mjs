// The seed of `npm run bench:api` (and of bench-api-ab.mjs, which seeds two checkouts alike), in SQL run
// through `wrangler d1 execute --local` before the worker starts: a small workspace (100 published posts,
// each with 2 platform rows carrying metrics, 3 labels, 2 media, 1 comment) and a big one (100,000 draft
// posts, 1 platform row each); users 1..perGroup are members of the small one, the next perGroup of the
// big one.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

export const BIG_POSTS = 100_000;
export const SMALL_POSTS = 100;
export const SMALL = 1; // workspace ids
export const BIG = 2;
const T0 = Date.UTC(2026, 0, 1); // the seeded rows' timestamps start here (ms)

const upTo = (n) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})`;

export function seedSql(perGroup) {
  const users = [];
  const members = [];
  for (let id = 1; id <= 2 * perGroup; id++) {
    const group = id <= perGroup ? "small" : "big";
    users.push(`(${id}, 'Bench ${group} ${id}', 'bench-${id}@bench.test', ${T0}, ${T0})`);
    members.push(`(${group === "small" ? SMALL : BIG}, ${id}, ${T0})`);
  }
  const bigOwner = perGroup + 1;
  const metrics =
    "json_object('likes', i % 7, 'comments', i % 3, 'shares', i % 2, 'impressions', 100 + i, 'quotes', 0, 'saves', i % 4, 'engagement_rate', round((i % 7 + i % 3 + i % 2) * 100.0 / (100 + i), 2))";
  return [
    `INSERT INTO users (id, name, email, created_at, updated_at) VALUES ${users.join(", ")};`,
    `INSERT INTO workspaces (id, name, slug, type, timezone, language, created_at, updated_at) VALUES
      (${SMALL}, 'Bench small', 'bench-small', 'PERSONAL', 'Europe/Berlin', 'en', ${T0}, ${T0}),
      (${BIG}, 'Bench big', 'bench-big', 'PERSONAL', 'Europe/Berlin', 'en', ${T0}, ${T0});`,
    `INSERT INTO workspace_members (workspace_id, user_id, created_at) VALUES ${members.join(", ")};`,
    `INSERT INTO accounts (id, workspace_id, platform, platform_user_id, username, name, created_at, updated_at) VALUES
      (1, ${SMALL}, 'twitter', 'tw-1', 'bench_small_x', 'Bench small X', ${T0}, ${T0}),
      (2, ${SMALL}, 'linkedin', 'li-2', 'bench-small-li', 'Bench small LinkedIn', ${T0}, ${T0}),
      (3, ${BIG}, 'twitter', 'tw-3', 'bench_big_x', 'Bench big X', ${T0}, ${T0}),
      (4, ${BIG}, 'linkedin', 'li-4', 'bench-big-li', 'Bench big LinkedIn', ${T0}, ${T0});`,
    `INSERT INTO labels (id, workspace_id, name, color, created_at, updated_at) VALUES
      (1, ${SMALL}, 'Launch', '#EF4444', ${T0}, ${T0}), (2, ${SMALL}, 'Evergreen', '#10B981', ${T0}, ${T0}),
      (3, ${SMALL}, 'Promo', '#3B82F6', ${T0}, ${T0}), (4, ${BIG}, 'Launch', '#EF4444', ${T0}, ${T0}),
      (5, ${BIG}, 'Evergreen', '#10B981', ${T0}, ${T0}), (6, ${BIG}, 'Promo', '#3B82F6', ${T0}, ${T0});`,
    `INSERT INTO media (id, workspace_id, name, r2_key, mime_type, type, size, state, created_at, updated_at) VALUES
      (1, ${SMALL}, 'one.jpg', 'bench/1/one.jpg', 'image/jpeg', 'image', 120000, 'ready', ${T0}, ${T0}),
      (2, ${SMALL}, 'two.jpg', 'bench/1/two.jpg', 'image/jpeg', 'image', 240000, 'ready', ${T0}, ${T0}),
      (3, ${SMALL}, 'three.png', 'bench/1/three.png', 'image/png', 'image', 360000, 'ready', ${T0}, ${T0}),
      (4, ${SMALL}, 'four.png', 'bench/1/four.png', 'image/png', 'image', 480000, 'ready', ${T0}, ${T0});`,
    // The small workspace: posts 1..100, published on both accounts.
    `${upTo(SMALL_POSTS)} INSERT INTO posts (id, workspace_id, user_id, status, content, created_at, updated_at)
      SELECT i, ${SMALL}, 1, 'PUBLISHED', json_array('Small post ' || i || ', first item', 'Small post ' || i || ', second item'),
        ${T0} + i * 60000, ${T0} + i * 60000 FROM n;`,
    `${upTo(SMALL_POSTS)} INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, platform_post_id, post_url, posted_on, created_at, updated_at)
      SELECT i, a.id, a.platform, 'PUBLISHED', '{}', ${metrics}, a.platform || '-' || i,
        'https://example.com/' || a.platform || '/' || i, json_array(${T0} + i * 60000 + 30000), ${T0} + i * 60000, ${T0} + i * 60000
      FROM n CROSS JOIN (SELECT id, platform FROM accounts WHERE workspace_id = ${SMALL} ORDER BY id) a ORDER BY i, a.id;`,
    `${upTo(SMALL_POSTS)} INSERT INTO post_labels (post_id, label_id)
      SELECT i, l.id FROM n CROSS JOIN (SELECT id FROM labels WHERE workspace_id = ${SMALL}) l;`,
    `${upTo(SMALL_POSTS)} INSERT INTO post_media (post_id, item_index, position, media_id)
      SELECT i, 0, 0, 1 + i % 4 FROM n UNION ALL SELECT i, 1, 0, 1 + (i + 1) % 4 FROM n;`,
    `${upTo(SMALL_POSTS)} INSERT INTO comments (workspace_id, account_id, post_id, platform, platform_comment_id, content, author_name, received_at, created_at)
      SELECT ${SMALL}, (SELECT id FROM accounts WHERE workspace_id = ${SMALL} AND platform = 'twitter' ORDER BY id LIMIT 1), i, 'twitter',
        'c-' || i, 'Nice post ' || i, 'Reader ' || i, ${T0} + i * 60000 + 45000, ${T0} + i * 60000 + 45000 FROM n;`,
    // The big workspace: posts 101..100100, drafts on one account each.
    `${upTo(BIG_POSTS)} INSERT INTO posts (id, workspace_id, user_id, status, content, created_at, updated_at)
      SELECT ${SMALL_POSTS} + i, ${BIG}, ${bigOwner}, 'DRAFT', json_array('Big post ' || i), ${T0} + i * 1000, ${T0} + i * 1000 FROM n;`,
    `${upTo(BIG_POSTS)} INSERT INTO post_platforms (post_id, account_id, platform, status, settings, analytics, posted_on, created_at, updated_at)
      SELECT ${SMALL_POSTS} + i, 3 + i % 2, CASE i % 2 WHEN 0 THEN 'twitter' ELSE 'linkedin' END, 'DRAFT', '{}', '{}', '[]',
        ${T0} + i * 1000, ${T0} + i * 1000 FROM n;`,
    "",
  ].join("\n");
}

/** Seeds the local D1 under `state` with wrangler of the checkout at `root`; resolves to the time it took (ms). */
export function seed(root, state, perGroup) {
  const file = join(state, "bench-seed.sql");
  writeFileSync(file, seedSql(perGroup));
  const env = {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    CI: "true",
    NO_COLOR: "1",
  };
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      join(root, "node_modules", "wrangler", "bin", "wrangler.js"),
      "d1",
      "execute",
      "DB",
      "--local",
      "--persist-to",
      state,
      "--file",
      file,
      "--yes",
    ],
    { cwd: root, env, encoding: "utf8", timeout: 180_000 },
  );
  if (run.status !== 0) throw new Error(`seeding failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
  return performance.now() - started;
}
