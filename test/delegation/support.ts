// Drives a delegation the way an application and its user's browser do: the application's server
// creates a session; a small browser (cookie jar, manual redirects) follows authorize_url, answers the
// sandbox consent form and lands on the application's callback.
import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { admin, call, ORIGIN } from "../support/client";
import { createKey, createUser } from "../support/seed";

export const SESSIONS = "/api/oauth/delegate/sessions";
export const APP_CALLBACK = "https://app.example.test/oauth/callback";

/** A user with a key and a signing secret: a fresh tenant, so rate limits never collide. */
export async function createApp() {
  const user = await createUser("Delegating App");
  const { key, id: keyId } = await createKey(user.id, ["posts"]);
  const secret = await admin<{ signing_secret: string }>("POST", `/api-keys/${keyId}/signing-secret`);
  expect(secret.status).toBe(201);
  return { userId: user.id, key, keyId, secret: secret.body.signing_secret };
}

export type App = Awaited<ReturnType<typeof createApp>>;

export const randomState = () => `st-${crypto.randomUUID()}`;

export async function createSession(app: App, body: Record<string, unknown> = {}) {
  const res = await call<{ authorize_url: string; expires_in: number }>("POST", SESSIONS, {
    key: app.key,
    body: { platform: "twitter", callback_url: APP_CALLBACK, state: randomState(), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.authorize_url;
}

/** The flow id inside an authorize URL (its Coordinator instance is `delegation:<id>`). */
export const flowIdOf = (authorizeUrl: string) => authorizeUrl.split("/").at(-1)!.slice(0, 22);

type Cookie = { value: string; path: string };

/** Follows redirects by hand and keeps cookies, like a browser that never leaves the worker. */
export class Browser {
  readonly cookies = new Map<string, Cookie>();

  async request(method: string, url: string, form?: Record<string, string>): Promise<Response> {
    const target = new URL(url, ORIGIN);
    expect(target.origin, `the browser only talks to the worker here, not ${target.origin}`).toBe(ORIGIN);
    const headers = new Headers();
    const cookie = [...this.cookies]
      .filter(([, c]) => target.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
    if (cookie) headers.set("cookie", cookie);
    let body: string | undefined;
    if (form) {
      body = new URLSearchParams(form).toString();
      headers.set("content-type", "application/x-www-form-urlencoded");
    }
    const response = await exports.default.fetch(target.toString(), {
      method,
      headers,
      body,
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) this.#store(line);
    return response;
  }

  get = (url: string) => this.request("GET", url);
  post = (url: string, form: Record<string, string>) => this.request("POST", url, form);

  #store(line: string) {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const [name, value] = pair!.split("=") as [string, string];
    const path = attributes.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith("max-age="));
    if (maxAge && Number(maxAge.slice(8)) <= 0) this.cookies.delete(name);
    else this.cookies.set(name, { value, path });
  }
}

export const locationOf = (response: Response) => {
  expect(response.status, `expected a redirect, got ${response.status}`).toBe(302);
  return response.headers.get("location")!;
};

/** Text of an attribute or element as the browser reads it (`&amp;` last, so it is not decoded twice). */
const unescapeHtml = (html: string) =>
  html
    .replaceAll("&#39;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The consent form's action, from the page's HTML. */
export function formAction(html: string): string {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeDefined();
  return unescapeHtml(action!);
}

export type FlowResult = {
  /** Where the browser ended: the application's callback_url with the proof or an error. */
  landed: URL;
  /** The responses on the way, for header checks. */
  steps: {
    authorize: Response;
    consent: Response;
    consentHtml: string;
    decision: Response;
    callback: Response;
    /** The channel page (Facebook Pages, LinkedIn organisations) and the pick's answer, when shown. */
    channelHtml?: string;
    pick?: Response;
  };
  browser: Browser;
};

/** The channel page's choices: each button's value (the channel id) and its label. */
export function channelChoices(html: string) {
  return [...html.matchAll(/<button type="submit" name="channel" value="([^"]*)">([^<]*)<\/button>/g)].map(
    (m) => ({ id: unescapeHtml(m[1]!), label: unescapeHtml(m[2]!) }),
  );
}

/** authorize_url → sandbox consent → Allow/Deny → service callback → the application's callback. */
export async function runFlow(
  authorizeUrl: string,
  {
    handle = "ada",
    decision = "allow",
    channel,
    consentUrl: rewrite = (url) => url,
  }: {
    handle?: string;
    decision?: "allow" | "deny";
    channel?: (labels: string[]) => number;
    /** Changes the consent URL the service sent the browser to (a test asking for other scopes). */
    consentUrl?: (url: string) => string;
  } = {},
  browser = new Browser(),
): Promise<FlowResult> {
  const authorize = await browser.get(authorizeUrl);
  const consentUrl = rewrite(locationOf(authorize));
  expect(consentUrl.startsWith(`${ORIGIN}/sandbox/`)).toBe(true);
  const consent = await browser.get(consentUrl);
  expect(consent.status).toBe(200);
  const consentHtml = await consent.text();
  const action = formAction(consentHtml);
  const decision_ = await browser.post(action, { handle, decision });
  const callbackUrl = locationOf(decision_);
  expect(callbackUrl.startsWith(`${ORIGIN}/api/oauth/delegate/callback?`)).toBe(true);
  const callback = await browser.get(callbackUrl);
  const steps: FlowResult["steps"] = { authorize, consent, consentHtml, decision: decision_, callback };
  if (callback.status === 200) {
    // The channel page: pick one (the first unless `channel` chooses by the labels).
    const html = await callback.text();
    const choices = channelChoices(html);
    expect(choices.length).toBeGreaterThan(1);
    const chosen = choices[channel ? channel(choices.map((c) => c.label)) : 0]!;
    const flow = /<input type="hidden" name="flow" value="([^"]+)">/.exec(html)?.[1] ?? "";
    steps.channelHtml = html;
    steps.pick = await browser.post(formAction(html), { flow, channel: chosen.id });
    return { landed: new URL(locationOf(steps.pick)), steps, browser };
  }
  const landed = new URL(locationOf(callback));
  return { landed, steps, browser };
}

/** The proof's signed string, built by hand from the received (decoded) values. */
/**
 * Connects a sandbox account of `platform` into the tenant's workspace the way a user does (the API's
 * authorize_url, consent as `handle`); answers the account's id.
 */
export async function connectInto(
  tenant: { key: string; workspace: { id: number } },
  handle: string,
  platform = "twitter",
  redirect = "https://app.example.test/done",
) {
  const res = await call<{ authorize_url: string }>("POST", "/api/v1/accounts/connect", {
    key: tenant.key,
    body: { workspace_id: tenant.workspace.id, platform, redirect_url: redirect },
  });
  expect(res.status).toBe(201);
  const { landed } = await runFlow(res.body.authorize_url, { handle });
  expect(landed.searchParams.get("status")).toBe("connected");
  return Number(landed.searchParams.get("account_id"));
}

export const signedString = (q: URLSearchParams) =>
  `platform=${q.get("platform")}&platform_id=${q.get("platform_id")}&handle=${q.get("handle")}&state=${q.get("state")}&expires=${q.get("expires")}`;

export { hmacHex } from "../support/hmac";
export { call, ORIGIN };
