// Talks to the worker the way a client does: through its fetch handler, with real bindings behind it.
import { exports } from "cloudflare:workers";

export const ORIGIN = "https://api.example.test";
export const ADMIN_TOKEN = "test-admin-token";

export type Answer<T = any> = { status: number; body: T; headers: Headers };

export type CallOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: BodyInit;
  headers?: Record<string, string>;
};

export async function call<T = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const headers = new Headers(options.headers);
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  let body: BodyInit | undefined = options.rawBody;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await exports.default.fetch(`${ORIGIN}${path}`, {
    method,
    headers,
    body,
    redirect: "manual",
  });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text);
  return { status: response.status, body: parsed as T, headers: response.headers };
}

export const admin = <T = any>(method: string, path: string, body?: unknown) =>
  call<T>(method, `/admin/v1${path}`, { key: ADMIN_TOKEN, body });

/**
 * Parses `Server-Timing`: D1 round trips and their time, whether the Coordinator was called, the
 * sequential hops, and the rows D1 read.
 */
export function serverTiming(headers: Headers) {
  const value = headers.get("server-timing") ?? "";
  const db = /db;dur=([\d.]+);desc="(\d+)"/.exec(value);
  const gate = /gate;dur=([\d.]+)/.exec(value);
  const hops = /hops;desc="(\d+)"/.exec(value);
  const rows = /rows;desc="(\d+)"/.exec(value);
  return {
    dbTrips: db ? Number(db[2]) : Number.NaN,
    dbMs: db ? Number(db[1]) : Number.NaN,
    gateCalls: gate ? 1 : 0,
    hops: hops ? Number(hops[1]) : Number.NaN,
    rowsRead: rows ? Number(rows[1]) : Number.NaN,
  };
}
