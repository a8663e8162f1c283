// Helpers for the emulator tests: an account connected through the real consent flow on the sandbox,
// posts delivered by the real queue consumer, and the emulator called the way the adapter calls it.
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { Platform } from "../../src/db/enums";
import { decryptSecret } from "../../src/lib/crypto";
import { backgroundOrigin } from "../../src/lib/origin";
import { SPECS } from "../../src/platforms/catalog";
import { configuredDefinition } from "../../src/platforms/define";
import { publishingAdapter } from "../../src/platforms/index";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { emulatedAdapter } from "../../src/platforms/sandbox/emulated";
import type { Fetch, PlatformComment } from "../../src/platforms/types";
import type { PublishDeps } from "../../src/publishing/deps";
import { sandboxPlatformId } from "../../src/sandbox/emulators";
import { mintToken } from "../../src/sandbox/mint";
import { runFlow } from "../delegation/support";
import { deliver, type RowRecord, rowsOf, setStatus } from "../publishing/support";
import { call, ORIGIN } from "../support/client";
import { createKey, createUser, createWorkspace } from "../support/seed";

export const unique = () => crypto.randomUUID().slice(0, 8);

/** A workspace with an account of `platform` connected through the sandbox's consent page. */
export async function connected(platform: Platform, handle = `u${unique()}`) {
  const user = await createUser();
  const workspace = await createWorkspace(user.id);
  const { key } = await createKey(user.id);
  const started = await call("POST", "/api/v1/accounts/connect", {
    key,
    body: { workspace_id: workspace.id, platform, redirect_url: "https://app.example.test/connected" },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const flow = await runFlow(started.body.authorize_url, { handle });
  expect(Object.fromEntries(flow.landed.searchParams)).toMatchObject({ status: "connected", platform });
  const accountId = Number(flow.landed.searchParams.get("account_id"));
  return { key, workspace, accountId, handle, platformId: await sandboxPlatformId(platform, handle) };
}

export type Connected = Awaited<ReturnType<typeof connected>>;

/** The stored account row (tokens decrypted). */
export async function accountRow(
  accountId: number,
): Promise<Record<string, any> & { accessToken: string | null; refreshToken: string | null }> {
  const row = (await env.DB.prepare("SELECT * FROM accounts WHERE id = ?")
    .bind(accountId)
    .first<Record<string, any>>())!;
  const decrypt = async (value: unknown) =>
    typeof value === "string" ? decryptSecret(env.ENCRYPTION_KEY, value) : null;
  return {
    ...row,
    accessToken: await decrypt(row.access_token_enc),
    refreshToken: await decrypt(row.refresh_token_enc),
  };
}

/** A pause that moves the (faked) clock instead of waiting: the adapters' status polls cost no time. */
export const clockSleep = async (ms: number) => {
  vi.setSystemTime(Date.now() + ms);
};

/**
 * Publishing dependencies whose adapters are the real ones on the emulator, as with SANDBOX=true, but
 * with polls that move the clock instead of sleeping (unless `sleep` says otherwise), the `timeouts` a
 * test shortens, and every request going through `wrap` (a fault, a delay, a record of what was sent).
 */
export function emulatedDeps(
  options: NonNullable<Parameters<typeof emulatedAdapter>[3]> & { wrap?: (inner: Fetch) => Fetch } = {},
): Partial<PublishDeps> {
  const { wrap = (inner) => inner, ...adapterOptions } = options;
  const origin = backgroundOrigin(env);
  const fetch = wrap(sandboxFetch(origin));
  return {
    adapterFor: (_env, platform) =>
      emulatedAdapter(configuredDefinition(SPECS[platform], env), origin, fetch, {
        sleep: clockSleep,
        ...adapterOptions,
      }),
  };
}

/**
 * A post of the account created through the API and delivered once by the real consumer (with `deps`,
 * by the publish consumer with those dependencies).
 */
export async function published(
  account: Connected,
  fields: Record<string, unknown>,
  attempts = 1,
  deps?: Partial<PublishDeps>,
) {
  const res = await call("POST", "/api/v1/posts", {
    key: account.key,
    body: { workspace_id: account.workspace.id, accounts: [account.accountId], ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await setStatus(res.body.id, "PUBLISHING");
  const delivery = await deliver([{ post_id: res.body.id }], { attempts, deps });
  return { id: res.body.id as number, delivery, rows: await rowsOf(res.body.id) };
}

/**
 * Delivers the post's message again (attempts `from`, `from + 1`, …, as the queue's retries would) while
 * its first row is PUBLISHING, `max` attempts in all; `between` looks at the rows before each.
 */
export async function untilSettled(
  postId: number,
  options: {
    deps?: Partial<PublishDeps>;
    from?: number;
    max?: number;
    between?: (rows: RowRecord[]) => void;
  } = {},
) {
  const { deps = emulatedDeps(), from = 2, max = 10 } = options;
  let rows = await rowsOf(postId);
  let attempts = from - 1;
  while (rows[0]!.status === "PUBLISHING" && attempts < max) {
    options.between?.(rows);
    attempts += 1;
    rows = (await redeliver(postId, attempts, deps)).rows;
  }
  return { rows, attempts };
}

/** Delivers the post's publish message once more (the queue's next attempt), as `published` did. */
export async function redeliver(postId: number, attempts: number, deps?: Partial<PublishDeps>) {
  const delivery = await deliver([{ post_id: postId }], { attempts, deps });
  return { delivery, rows: await rowsOf(postId) };
}

type SandboxPost = {
  id: string;
  handle: string;
  text: string[];
  media: Array<{ item: number; url: string; type: string }>;
  replies: Array<{ id: string; text: string }>;
  platform_request: any;
};

/** Every post the emulator holds for a handle, oldest first. */
export async function postsOf(platform: Platform, handle: string): Promise<SandboxPost[]> {
  const res = await call("GET", `/sandbox/${platform}/accounts/${handle}/posts`);
  expect(res.status).toBe(200);
  return res.body.data;
}

export async function statsOf(platform: Platform, handle: string) {
  const res = await call("GET", `/sandbox/${platform}/accounts/${handle}/stats`);
  expect(res.status).toBe(200);
  return res.body as { publications: number; media_uploads: number; token_refreshes: number };
}

/** A call to the emulator with a token of `handle`, as the adapter makes it (Bearer header). */
export async function graph(
  platform: Platform,
  method: string,
  path: string,
  handle: string,
  form?: Record<string, string>,
) {
  const token = await mintToken(env, platform, handle);
  const response = await exports.default.fetch(`${ORIGIN}/sandbox/${platform}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** The real adapter on the emulator, acting for a connected account's stored token. */
export async function adapterFor(platform: Platform, account: Connected) {
  const row = await accountRow(account.accountId);
  return {
    adapter: publishingAdapter(env, platform, "live"),
    auth: { handle: account.handle, platformUserId: account.platformId, accessToken: row.accessToken },
  };
}

/** A follower comments on the account's post (the sandbox's follower tool); its answer. */
export async function follow(
  platform: Platform,
  handle: string,
  body: { post_id: string; text: string; author: unknown; parent_id?: string },
) {
  return call("POST", `/sandbox/${platform}/accounts/${handle}/comments`, { body });
}

/**
 * The conversation the follower tests read back: Fan One comments on the post, fan_two answers that
 * comment, and the account itself answers `ownAnswers` (Fan One's comment unless told: Instagram's test
 * answers fan_two's reply). Each is asserted created; their answers are returned.
 */
export async function conversation(
  platform: Platform,
  account: Connected,
  postId: string,
  ownAnswers: "first" | "second" = "first",
) {
  const first = await follow(platform, account.handle, {
    post_id: postId,
    text: "Love it",
    author: { name: "Fan One", username: "fan_one" },
  });
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  const second = await follow(platform, account.handle, {
    post_id: postId,
    text: "Me too",
    author: "fan_two",
    parent_id: first.body.id,
  });
  const own = await follow(platform, account.handle, {
    post_id: postId,
    text: "Thank you",
    author: account.handle,
    parent_id: (ownAnswers === "first" ? first : second).body.id,
  });
  expect([second.status, own.status]).toEqual([201, 201]);
  return { first, second, own };
}

/**
 * The conversation's answers as the adapter read them back: fan_two's under Fan One's comment, and the
 * account's own there too (written by the account: `is_own`).
 */
export function expectAnswersRead(
  comments: PlatformComment[],
  { first, second, own }: Awaited<ReturnType<typeof conversation>>,
) {
  expect(comments.find((c) => c.id === second.body.id)).toMatchObject({
    parent_id: first.body.id,
    is_own: false,
  });
  expect(comments.find((c) => c.id === own.body.id)).toMatchObject({
    parent_id: first.body.id,
    is_own: true,
  });
}
