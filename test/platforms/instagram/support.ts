// What the Instagram tests share: the connected account, drafts, readers of the requests the adapter
// sent, and an adapter whose container polling waits no time.
import { expect } from "vitest";
import { DEFAULT_TIMEOUTS } from "../../../src/platforms/call";
import { instagramPublishing } from "../../../src/platforms/instagram/index";
import type { DraftItem, Fetch } from "../../../src/platforms/types";
import { CREDENTIALS } from "../replay";
import { HANDLE, IG_TOKEN, IG_USER_ID } from "./recorded";

export const GRAPH = "https://graph.instagram.com/v25.0";

export const account = { handle: HANDLE, platformUserId: IG_USER_ID, accessToken: IG_TOKEN };

export const draftOf = (items: DraftItem[], settings: Record<string, unknown> = {}) => ({
  items,
  settings: { post_type: "post", share_to_feed: true, collaborators: [], location_id: null, ...settings },
  fingerprint: "sp-9-1",
});

export const pathOf = (request: Request) => request.url.split("?")[0];
export const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
export const formOf = async (request: Request) =>
  Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer())));

/** The Instagram publishing half with a recorded fetch; its polling waits are recorded, not slept. */
export function publishingWith(fetch: Fetch) {
  const waits: number[] = [];
  const publishing = instagramPublishing({
    fetch,
    credentials: CREDENTIALS,
    now: () => Date.now(),
    sleep: async (ms) => void waits.push(ms),
    timeouts: DEFAULT_TIMEOUTS,
  });
  return { publishing, waits };
}

/** Asserts a call with the account's token as a Bearer header, never in the URL. */
export function expectBearer(request: Request, token = IG_TOKEN) {
  expect(request.headers.get("authorization")).toBe(`Bearer ${token}`);
  expect(request.url).not.toContain(token);
}

export async function expectPost(request: Request, url: string, fields: Record<string, string>) {
  expect(request.method).toBe("POST");
  expect(pathOf(request)).toBe(url);
  expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
  expect(await formOf(request)).toEqual(fields);
  expectBearer(request);
}

export function expectGet(request: Request, url: string, query: Record<string, string>) {
  expect(request.method).toBe("GET");
  expect(pathOf(request)).toBe(url);
  expect(queryOf(request)).toEqual(query);
  expectBearer(request);
}
