// Shared pieces of the X adapter tests: the account, drafts, the adapter with a recording sleep, and
// readers for what a request carried.
import { expect } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { DEFAULT_TIMEOUTS } from "../../../src/platforms/call";
import { SPECS } from "../../../src/platforms/catalog";
import { twitterPublishing } from "../../../src/platforms/twitter";
import { type DraftItem, type Fetch, PlatformError } from "../../../src/platforms/types";
import { CREDENTIALS } from "../replay";
import { HANDLE, TOKEN, USER_ID } from "./recorded";

export const account = { handle: HANDLE, platformUserId: USER_ID, accessToken: TOKEN };

export const item = (text: string, media: DraftItem["media"] = []): DraftItem => ({ text, media });

export const draftOf = (items: DraftItem[], settings: Record<string, unknown> = {}) => ({
  items,
  settings,
  fingerprint: "sp-7-1",
});

/** The real X adapter whose media status polls record their waits instead of sleeping. */
export function adapterWithSleeps(fetch: Fetch) {
  const sleeps: number[] = [];
  const publishing = twitterPublishing({
    fetch,
    credentials: CREDENTIALS,
    now: () => Date.now(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    timeouts: DEFAULT_TIMEOUTS,
  });
  const adapter = createAdapter(
    { ...SPECS.twitter, publishing: () => publishing },
    { credentials: CREDENTIALS, fetch },
  );
  return { adapter, sleeps };
}

/** The PlatformError a call fails with (the test fails if it succeeds or throws anything else). */
export async function failureOf(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}

export const jsonOf = (request: Request) => request.clone().json() as Promise<any>;

/** A multipart append: its segment index and the bytes of its `media` part. */
export async function appendOf(request: Request) {
  expect(request.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/);
  const form = await request.clone().formData();
  const media = form.get("media") as File;
  return { segment: form.get("segment_index"), bytes: new Uint8Array(await media.arrayBuffer()) };
}

/** The request's method, URL and the headers every X call carries. */
export function expectXCall(request: Request, method: string, url: string) {
  expect(request.method).toBe(method);
  expect(request.url).toBe(url);
  expect(request.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
}
