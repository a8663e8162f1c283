// Issue 10, item 5: no input may get a 500. Every route family (the whole API as the OpenAPI document
// lists it, the operator API, the delegation pages, signed media links, the sandbox platform, the
// reference) is sent malformed, mistyped, oversized and hostile requests; every answer must be a 4xx (or
// a success), never a 5xx. Deterministic: the same cases every run.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { RATE_WINDOW_MS } from "../../src/http/gate";
import { ADMIN_TOKEN, call } from "../support/client";
import { documentedBodyFields, documentedRoutes } from "../support/contract";
import { createTenant } from "../support/seed";

const PLATFORMS = [
  "twitter",
  "linkedin",
  "tiktok",
  "youtube",
  "facebook",
  "instagram",
  "pinterest",
  "threads",
];

/** Values that have broken parsers somewhere. */
const VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  "",
  " ",
  "0x1",
  "1e1",
  "\u0000",
  "\ud800",
  "x".repeat(70_000),
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00%ff",
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  Array.from({ length: 300 }, (_, i) => i),
];

const ID_SPELLINGS = ["0", "-1", "0x1", "1e1", "1.0", "%00", "%ff", "99999999999999999999", "abc", "1;DROP"];

/**
 * The hostile bodies for one route: each value as the whole body, each of the route's own body fields
 * (as the document declares them) set to each of the first ten values, deep nesting and a very wide
 * object (2,000 fields no route knows).
 */
function bodies(fields: string[]): unknown[] {
  const out: unknown[] = [...VALUES];
  for (const field of fields) for (const value of VALUES.slice(0, 10)) out.push({ [field]: value });
  let deep: unknown = 1;
  for (let i = 0; i < 2000; i++) deep = { a: deep };
  out.push(deep, Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])));
  return out;
}

const RAW_BODIES: Array<[string, string | Uint8Array]> = [
  ["application/json", "{"],
  ["application/json", "\u00ff\u00fe"],
  ["application/json", new Uint8Array([0xff, 0xfe, 0x00, 0x80])],
  ["multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data\r\n\r\nbroken"],
  ["multipart/form-data", "no boundary"],
  ["application/x-www-form-urlencoded", "a=%ZZ&&=&"],
  ["text/plain", "hello"],
];

/** Every status answered in the current test, to check that the requests reached the routes. */
let statuses: number[] = [];
beforeEach(() => {
  statuses = [];
});
const rateLimited = () => statuses.filter((status) => status === 429).length;

const concrete = (route: string, id: string) => route.replace(/\{[^}]+\}/g, id);

async function expectNo5xx(method: string, path: string, options: Parameters<typeof call>[2]) {
  const res = await call(method, path, options);
  statuses.push(res.status);
  expect(
    res.status,
    `${method} ${path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
  ).toBeLessThan(500);
}

/**
 * Runs the checks 8 at a time: the requests are independent, so the runtime overlaps their waits
 * instead of answering thousands of them one after another. Every check still runs and must pass.
 * The clock (`Date`, which the gate reads) moves past the rate window before each batch: one key sends
 * thousands of requests, and past its 60 a minute every one would be a 429 from the gate, never reaching
 * the validation and the handlers this file is about.
 */
async function inBatches(checks: Array<() => Promise<void>>, size = 8) {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  try {
    for (let i = 0; i < checks.length; i += size) {
      vi.setSystemTime(Date.now() + RATE_WINDOW_MS + 1_000);
      await Promise.all(checks.slice(i, i + size).map((check) => check()));
    }
  } finally {
    vi.useRealTimers();
  }
}

describe("no route answers 5xx to bad input", () => {
  // Thousands of requests (in batches of 8): more than the default 20 s on a busy machine, one at a time.
  it("the documented API (and the operator API): hostile bodies, ids and queries", async () => {
    const errors = vi.spyOn(console, "error");
    const t = await createTenant();
    const routes = documentedRoutes().map((r) => r.split(" ") as [string, string]);
    expect(routes.length).toBeGreaterThan(20);
    const checks: Array<() => Promise<void>> = [];
    for (const [method, route] of routes) {
      const key = route.startsWith("/admin/") ? ADMIN_TOKEN : t.key;
      for (const id of ID_SPELLINGS) checks.push(() => expectNo5xx(method, concrete(route, id), { key }));
      const path = concrete(route, "1");
      for (const query of [
        "?workspace_id=0x1&page=-1&per_page=1e9",
        "?include_comments=maybe&folder_id=%00",
        `?q=${"x".repeat(5000)}`,
      ])
        checks.push(() => expectNo5xx(method, `${path}${query}`, { key }));
      if (method === "POST" || method === "PUT" || method === "PATCH") {
        const fields = documentedBodyFields(method, route);
        for (const body of bodies(fields)) checks.push(() => expectNo5xx(method, path, { key, body }));
        for (const [type, raw] of RAW_BODIES)
          checks.push(() =>
            expectNo5xx(method, path, { key, rawBody: raw, headers: { "content-type": type } }),
          );
      }
    }
    await inBatches(checks);
    // The checks reached the routes: none was refused by the rate limit instead.
    expect(rateLimited()).toBe(0);
    // Nothing was logged as an unhandled error: a 4xx that hides a crash would show up here.
    const crashes = errors.mock.calls.filter(([first]) => String(first).startsWith("unhandled error"));
    expect(crashes).toEqual([]);
  }, 60_000);

  it("the sandbox platform, the delegation pages, signed media links and the reference", async () => {
    const errors = vi.spyOn(console, "error");
    const paths: Array<[string, string]> = [
      ["GET", "/api/oauth/delegate/authorize/%00"],
      ["GET", `/api/oauth/delegate/authorize/${"A".repeat(44)}`],
      ["GET", "/api/oauth/delegate/callback?state=%ff&code=%00"],
      ["GET", `/api/oauth/delegate/callback?state=${"A".repeat(22)}.${"B".repeat(43)}&error=x`],
      ["GET", "/media/1?expires=-1&sig=zz"],
      ["GET", "/media/0x1?expires=99999999999999999999&sig="],
      ["GET", "/docs/%2e%2e/x"],
      ["GET", "/openapi.json?x=%ff"],
    ];
    for (const platform of [...PLATFORMS, "myspace"]) {
      const base = `/sandbox/${platform}`;
      paths.push(
        ["GET", `${base}/oauth/authorize?client_id=%00&redirect_uri=javascript:alert(1)&response_type=code`],
        ["POST", `${base}/oauth/authorize?client_id=x&redirect_uri=https://evil.example/&response_type=code`],
        ["POST", `${base}/oauth/token`],
        ["GET", `${base}/me`],
        ["POST", `${base}/posts`],
        ["GET", `${base}/posts?fingerprint=${"x".repeat(5000)}`],
        ["GET", `${base}/posts/99999999999999999999`],
        ["GET", `${base}/posts/abc/insights`],
        ["GET", `${base}/posts/1/comments`],
        ["POST", `${base}/posts/1/replies`],
        ["GET", `${base}/accounts/%00/posts`],
      );
    }
    const checks: Array<() => Promise<void>> = [];
    for (const [method, path] of paths) {
      for (const authorization of [
        undefined,
        "Basic !!!notb64",
        "Bearer x",
        `Bearer ${"y".repeat(10_000)}`,
      ]) {
        const headers: Record<string, string> = authorization ? { authorization } : {};
        if (method === "GET") checks.push(() => expectNo5xx(method, path, { headers }));
        else
          for (const [type, raw] of RAW_BODIES)
            checks.push(() =>
              expectNo5xx(method, path, { rawBody: raw, headers: { ...headers, "content-type": type } }),
            );
      }
    }
    await inBatches(checks);
    const crashes = errors.mock.calls.filter(([first]) => String(first).startsWith("unhandled error"));
    expect(crashes).toEqual([]);
  });
});
