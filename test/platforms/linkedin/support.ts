// Helpers for the LinkedIn adapter's tests: answers with headers, the adapter with a controllable clock
// and video wait, accounts, drafts, and the assertion that a request carries LinkedIn's REST headers.
import { expect } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { linkedin, linkedinPublishing } from "../../../src/platforms/linkedin";
import type { DraftItem, Fetch } from "../../../src/platforms/types";
import { CREDENTIALS } from "../replay";
import { ACCESS_TOKEN, ORG, PERSON } from "./recorded";

export const REST = "https://api.linkedin.com/rest";

export const answer = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

/** The Posts API's 201: an empty body, the post's URN in x-restli-id. */
export const created = (urn: string) => new Response(null, { status: 201, headers: { "x-restli-id": urn } });

/** An upload URL's answer to a PUT: 201, and the part's ETag where LinkedIn sends one. */
export const stored = (etag?: string) => new Response(null, { status: 201, headers: etag ? { etag } : {} });

/** The real adapter, with a clock and no waits between looks at processing media. */
export const linkedinAdapter = (fetch: Fetch, now = () => Date.now()) =>
  createAdapter(
    {
      ...linkedin,
      publishing: (context) =>
        linkedinPublishing(
          context,
          { videoWaitsMs: [0, 0], imageWaitsMs: [0, 0] },
          { products: "community_management", memberAnalytics: true },
        ),
    },
    { credentials: CREDENTIALS, fetch, now, sleep: async () => undefined },
  );

export const organization = { handle: "devtestco", platformUserId: ORG, accessToken: ACCESS_TOKEN };
export const member = { handle: "John Doe", platformUserId: PERSON, accessToken: ACCESS_TOKEN };

export const SETTINGS = { visibility: "PUBLIC", disable_reshare: false, document_title: null };

export const draftOf = (items: Array<string | DraftItem>, settings: Record<string, unknown> = SETTINGS) => ({
  items: items.map((item) => (typeof item === "string" ? { text: item, media: [] } : item)),
  settings,
  fingerprint: "sp-7-1",
});

/** The request went to `url` with `method`, the Bearer token and LinkedIn's version headers. */
export function expectRest(request: Request, method: string, url: string) {
  expect(request.method).toBe(method);
  expect(request.url).toBe(url);
  expect(request.headers.get("authorization")).toBe(`Bearer ${ACCESS_TOKEN}`);
  expect(request.headers.get("linkedin-version")).toBe("202605");
  expect(request.headers.get("x-restli-protocol-version")).toBe("2.0.0");
}

export const jsonOf = async (request: Request) => JSON.parse(await request.text());

/** The failure a promise rejects with (the test fails when it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => expect.unreachable("expected a failure"),
    (error: unknown) => error,
  );
}
