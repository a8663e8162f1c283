// What the Facebook tests share: the connected Page, drafts, and readers of the requests the adapter
// sent (their path, query and form body), with the appsecret_proof each one must carry.
import { expect } from "vitest";
import type { DraftItem } from "../../../src/platforms/types";
import { hmacHex } from "../../support/hmac";
import { CREDENTIALS } from "../replay";
import { PAGE_ID, PAGE_TOKEN } from "./recorded";

export const GRAPH = "https://graph.facebook.com/v25.0";

export const page = { handle: "Ada's Bakery", platformUserId: PAGE_ID, accessToken: PAGE_TOKEN };

export const draftOf = (items: DraftItem[], settings: Record<string, unknown> = {}) => ({
  items,
  settings: { post_type: "post", link: null, ...settings },
  fingerprint: "sp-7-1",
});

export const textItem = (text: string): DraftItem => ({ text, media: [] });

/** The URL without its query. */
export const pathOf = (request: Request) => request.url.split("?")[0];
export const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);
export const formOf = async (request: Request) =>
  Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await request.clone().arrayBuffer())));

/**
 * Asserts a Graph call as the docs want it: the token as a Bearer header (never in the URL), the
 * appsecret_proof of that token in the query.
 */
export async function expectSigned(request: Request, token = PAGE_TOKEN) {
  expect(request.headers.get("authorization")).toBe(`Bearer ${token}`);
  expect(request.url).not.toContain(token);
  expect(queryOf(request).appsecret_proof).toBe(await hmacHex(CREDENTIALS.clientSecret, token));
}

/** Asserts a form POST to `url` whose fields are exactly `fields`. */
export async function expectPost(request: Request, url: string, fields: Record<string, string>) {
  expect(request.method).toBe("POST");
  expect(pathOf(request)).toBe(url);
  expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
  expect(await formOf(request)).toEqual(fields);
  await expectSigned(request);
}

/** Asserts a GET of `url` whose query (besides the proof) is exactly `query`. */
export async function expectGet(
  request: Request,
  url: string,
  query: Record<string, string>,
  token = PAGE_TOKEN,
) {
  expect(request.method).toBe("GET");
  expect(pathOf(request)).toBe(url);
  const { appsecret_proof: _, ...rest } = queryOf(request);
  expect(rest).toEqual(query);
  await expectSigned(request, token);
}
