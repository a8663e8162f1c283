// End to end against a real platform's recorded answers: the worker runs with SANDBOX off and the
// platform's OAuth app configured, its outbound fetch answered by a route table of recordings (never the
// network). A test connects an account through the API and the browser routes (picking a channel where
// the platform asks for one), publishes a post through the engine's queue consumer, and syncs its
// analytics through the sync consumer, asserting what was sent at each step.
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import type { Platform } from "../../../src/db/enums";
import { deliver as deliverSync } from "../../analytics/queue";
import { deliver as deliverPublish, setStatus } from "../../publishing/support";
import { ADMIN_TOKEN, call, ORIGIN } from "../../support/client";
import { createPost, createTenant } from "../../support/seed";

export const CLIENT = { id: "client-123", secret: "secret-456" };

/** A request as the platform saw it, its body read once. */
export type Seen = { method: string; url: string; headers: Headers; body: string; bytes: Uint8Array };

export type Reply = Response | ((request: Seen) => Response | Promise<Response>);

/**
 * One recorded answer: for requests whose method is `method` and whose URL starts with `url` (or
 * matches it), `reply`; `times` limits how often it answers (then the next matching route does).
 */
export type Route = { method: string; url: string | RegExp; reply: Reply; times?: number };

/** What a recorded answer is made of, kept so a fresh Response can be built inside the worker. */
const recordedParts = new WeakMap<
  Response,
  { body: string; status: number; headers: Record<string, string> }
>();

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => {
  const parts = {
    body: JSON.stringify(body),
    status,
    headers: { "content-type": "application/json", ...headers },
  };
  const response = new Response(parts.body, parts);
  recordedParts.set(response, parts);
  return response;
};

/**
 * A copy of a recorded answer made in the calling request's context: a Response's body stream made in
 * the test's context cannot be read from inside the worker's request. Build recordings with `json`.
 */
function fresh(recorded: Response): Response {
  const parts = recordedParts.get(recorded);
  if (!parts) throw new TypeError("record answers with json(), or reply with a function");
  return new Response(parts.body, parts);
}

/** A fetch answered from `routes`; every request is recorded; one with no route fails the test. */
export function platformServer(routes: Route[]) {
  const seen: Seen[] = [];
  const left = routes.map((route) => ({ ...route, left: route.times ?? Number.POSITIVE_INFINITY }));
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const entry: Seen = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: new TextDecoder().decode(bytes),
      bytes,
    };
    seen.push(entry);
    const route = left.find(
      (r) =>
        r.left > 0 &&
        r.method === request.method &&
        (typeof r.url === "string" ? request.url.startsWith(r.url) : r.url.test(request.url)),
    );
    if (!route) throw new TypeError(`no recorded answer for ${request.method} ${request.url}`);
    route.left--;
    return typeof route.reply === "function" ? await route.reply(entry) : fresh(route.reply);
  };
  /** The requests whose URL starts with `prefix` (all of them without one). */
  const requests = (prefix = "") => seen.filter((r) => r.url.startsWith(prefix));
  return { fetch, seen, requests };
}

export type PlatformServer = ReturnType<typeof platformServer>;

/**
 * Runs the worker against the real adapter of `platform`, answered by `server`: SANDBOX off, the OAuth
 * app configured, the global fetch replaced. Call the returned function (afterEach) to undo it.
 */
export function useRealPlatform(platform: Platform, server: PlatformServer): () => void {
  const vars = env as unknown as Record<string, string | undefined>;
  const prefix = platform.toUpperCase();
  const saved = {
    SANDBOX: vars.SANDBOX,
    id: vars[`${prefix}_CLIENT_ID`],
    secret: vars[`${prefix}_CLIENT_SECRET`],
  };
  vars.SANDBOX = "false";
  vars[`${prefix}_CLIENT_ID`] = CLIENT.id;
  vars[`${prefix}_CLIENT_SECRET`] = CLIENT.secret;
  vi.stubGlobal("fetch", server.fetch);
  return () => {
    vi.unstubAllGlobals();
    vars.SANDBOX = saved.SANDBOX;
    vars[`${prefix}_CLIENT_ID`] = saved.id;
    vars[`${prefix}_CLIENT_SECRET`] = saved.secret;
  };
}

const browser = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(new URL(path, ORIGIN).toString(), { redirect: "manual", ...init });

/** The hidden inputs and the buttons' values of the channel page's form. */
function channelForm(html: string) {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  const hidden = [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
  const choices = [...html.matchAll(/<button[^>]*name="channel"[^>]*value="([^"]*)"/g)].map((m) => m[1]!);
  return { action, hidden, choices };
}

export type Connected = { accountId: number; tenant: Awaited<ReturnType<typeof createTenant>> };

/**
 * Connects an account of `platform` in a fresh tenant the way a user does: the API's authorize_url, the
 * redirect to the platform (asserted to carry `scopes`), the platform's redirect back with `code`, and,
 * when the service shows its channel page, a click on `channel` (by id; the first when not given).
 */
export async function connectAccount(
  platform: Platform,
  options: { code?: string; scopes?: string[]; channel?: string } = {},
): Promise<Connected> {
  const tenant = await createTenant();
  const redirect = "https://app.example.com/connected";
  const started = await call("POST", "/api/v1/accounts/connect", {
    key: tenant.key,
    body: { workspace_id: tenant.workspace.id, platform, redirect_url: redirect },
  });
  expect(started.status).toBe(201);
  const opened = await browser(started.body.authorize_url);
  expect(opened.status).toBe(302);
  const consent = new URL(opened.headers.get("location")!);
  for (const scope of options.scopes ?? []) expect(consent.searchParams.get("scope")).toContain(scope);
  const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
  const back = new URL("/api/oauth/delegate/callback", ORIGIN);
  back.searchParams.set("code", options.code ?? "recorded-code");
  back.searchParams.set("state", consent.searchParams.get("state")!);
  let answer = await browser(back.pathname + back.search, { headers: { cookie } });
  if (answer.status === 200) {
    const form = channelForm(await answer.text());
    expect(form.action).toBeTruthy();
    const choice = options.channel ?? form.choices[0];
    expect(form.choices).toContain(choice);
    const body = new URLSearchParams([...form.hidden, ["channel", choice!]]);
    answer = await browser(form.action!, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body,
    });
  }
  expect(answer.status).toBe(302);
  const landed = new URL(answer.headers.get("location")!);
  expect(Object.fromEntries(landed.searchParams)).toMatchObject({ status: "connected", platform });
  return { accountId: Number(landed.searchParams.get("account_id")), tenant };
}

/** The account as the API shows it. */
export async function accountOf(connected: Connected) {
  const list = await call("GET", `/api/v1/accounts?workspace_id=${connected.tenant.workspace.id}`, {
    key: connected.tenant.key,
  });
  expect(list.status).toBe(200);
  return (list.body.data as Array<Record<string, unknown>>).find((a) => a.id === connected.accountId)!;
}

/** Stores a media file in the library through the upload API; its id. */
export async function uploadMedia(connected: Connected, name: string, mime: string, bytes: Uint8Array) {
  const form = new FormData();
  form.set("workspace_id", String(connected.tenant.workspace.id));
  form.set("file", new File([bytes], name, { type: mime }));
  const res = await call("POST", "/api/v1/media/upload", { key: connected.tenant.key, body: form });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/**
 * Publishes a post on the connected account through the engine (the publish queue's consumer), then
 * answers the post as the API shows it. `fields` are the create body's (content, media, settings…).
 */
export async function publishPost(connected: Connected, fields: Record<string, unknown>) {
  const post = await createPost(connected.tenant, { accounts: [connected.accountId], ...fields });
  await setStatus(post.id, "PUBLISHING");
  await deliverPublish([{ post_id: post.id }]);
  const shown = await call("GET", `/api/v1/posts/${post.id}`, { key: connected.tenant.key });
  expect(shown.status).toBe(200);
  return shown.body;
}

/** Syncs the post's analytics through the sync consumer; answers the post as the API shows it. */
export async function syncPost(connected: Connected, postId: number) {
  const { results } = await env.DB.prepare("SELECT id FROM post_platforms WHERE post_id = ? ORDER BY id")
    .bind(postId)
    .all<{ id: number }>();
  const result = await deliverSync(results.map((r) => r.id));
  expect(result.retryMessages).toEqual([]);
  const shown = await call("GET", `/api/v1/posts/${postId}?include_comments=true`, {
    key: connected.tenant.key,
  });
  expect(shown.status).toBe(200);
  return shown.body;
}

/** Disconnects the account through the API. */
export const disconnect = (connected: Connected) =>
  call("DELETE", `/api/v1/accounts/${connected.accountId}`, { key: connected.tenant.key });

export { ADMIN_TOKEN };

/**
 * One platform's end-to-end test, kept beside its recordings (`test/platforms/<p>/end-to-end.ts`) and run
 * by the conformance suite (`test/platforms/end-to-end.system.test.ts`): the suite makes a fresh `server`,
 * runs the worker against it (`useRealPlatform`, plus `vars` set for the test), connects an account with
 * `connect`, hands both to `run`, and undoes it all afterwards.
 */
export type Scenario = {
  /** The test's name. */
  it: string;
  server: () => PlatformServer;
  connect?: Parameters<typeof connectAccount>[1];
  /** Environment variables the test runs with, restored after it. */
  vars?: Record<string, string>;
  run: (connected: Connected, server: PlatformServer) => Promise<void>;
};
