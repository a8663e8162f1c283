// A browser for the console tests: a cookie jar, same-origin form posts, and the csrf field read from
// the page, all through the worker's fetch.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { admin, ORIGIN } from "../support/client";

export type Page = { status: number; html: string; headers: Headers };

let ips = 0;

export class Browser {
  cookie: string | null = null;
  /** Other cookies the browser sends (`name=value; …`), e.g. the console's mode. */
  extraCookies: string | null = null;
  /** Each browser its own client address, so the per-IP sign-in limit of one test spares the others. */
  readonly ip = `192.0.2.${(ips++ % 250) + 1}-${crypto.randomUUID().slice(0, 6)}`;

  async request(
    method: string,
    path: string,
    init: { form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers = new Headers(init.headers);
    headers.set("cf-connecting-ip", this.ip);
    const cookies = [this.cookie ? `__Host-session=${this.cookie}` : null, this.extraCookies].filter(Boolean);
    if (cookies.length > 0) headers.set("cookie", cookies.join("; "));
    let body: URLSearchParams | undefined;
    if (init.form) {
      body = new URLSearchParams();
      for (const [name, value] of Object.entries(init.form))
        for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    }
    if (method === "POST" && !headers.has("origin")) headers.set("origin", ORIGIN);
    const response = await exports.default.fetch(`${ORIGIN}${path}`, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    const set = response.headers.get("set-cookie");
    if (set?.startsWith("__Host-session=")) {
      const value = set.slice("__Host-session=".length).split(";")[0]!;
      this.cookie = value === "" ? null : value;
    }
    return { status: response.status, html: await response.text(), headers: response.headers };
  }

  get = (path: string) => this.request("GET", path);
  post = (path: string, form: Record<string, string | string[]> = {}, headers?: Record<string, string>) =>
    this.request("POST", path, { form, ...(headers ? { headers } : {}) });

  /** The csrf field of a page of the signed-in session. */
  async csrf(path = "/console/keys") {
    const page = await this.get(path);
    const match = /name="csrf" value="([0-9a-f]{64})"/.exec(page.html);
    expect(match, page.html).not.toBeNull();
    return match![1]!;
  }
}

/** A link from the operator's invitation route: the path of its confirmation page. */
export async function invitation(userId: number) {
  const res = await admin("POST", `/users/${userId}/sign-in-links`);
  expect(res.status).toBe(201);
  return new URL(res.body.url).pathname;
}

/** A browser signed in as the user through an invitation link. */
export async function signedIn(userId: number) {
  const browser = new Browser();
  const path = await invitation(userId);
  const res = await browser.post(path);
  expect(res.status).toBe(303);
  expect(res.headers.get("location")).toBe("/console/keys");
  return browser;
}
