// Helpers for the sandbox platform's tests: its publishing adapter, accounts without tokens (as the
// operator creates them), drafts, and plain requests to its routes.
import { env, exports } from "cloudflare:workers";
import type { Platform } from "../../src/db/enums";
import { publishingAdapter } from "../../src/platforms/index";
import type { AccountAuth, DraftItem, PlatformAdapter, PublishDraft } from "../../src/platforms/types";
import { ORIGIN } from "../support/client";

export const adapterFor = (platform: Platform): PlatformAdapter => publishingAdapter(env, platform, "live");

let counter = 0;
/** A fresh handle, so that tests sharing the sandbox's storage never see each other's posts. */
export const freshHandle = (prefix = "acct") => `${prefix}_${Date.now().toString(36)}_${++counter}`;

/** An account connected without tokens: the sandbox adapter mints one for the handle. */
export const accountOf = (handle: string): AccountAuth => ({
  handle,
  platformUserId: null,
  accessToken: null,
});

let fingerprints = 0;
export const freshFingerprint = () => `sp-test-${Date.now().toString(36)}-${++fingerprints}`;

export const draftOf = (
  items: Array<string | DraftItem>,
  fingerprint = freshFingerprint(),
): PublishDraft => ({
  items: items.map((item) => (typeof item === "string" ? { text: item, media: [] } : item)),
  settings: {},
  fingerprint,
});

/** A request to the worker, as a browser or a test would send it. */
export const send = (path: string, init: RequestInit = {}) =>
  exports.default.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

export const postJson = async (platform: Platform, id: string) => {
  const res = await send(`/sandbox/${platform}/posts/${id}`, { headers: { accept: "application/json" } });
  return { status: res.status, body: (await res.json()) as any };
};

export const accountList = async (platform: Platform, handle: string) => {
  const res = await send(`/sandbox/${platform}/accounts/${encodeURIComponent(handle)}/posts`);
  return ((await res.json()) as { data: any[] }).data;
};
