import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { Browser, createApp, createSession, locationOf, ORIGIN, runFlow, SESSIONS } from "./support";

const expectPageHeaders = (res: Response) => {
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const csp = res.headers.get("content-security-policy") ?? "";
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toMatch(/style-src 'nonce-[A-Za-z0-9_-]{22}'/);
  expect(csp).not.toContain("unsafe-inline");
  expect(csp).not.toContain("script-src");
  return csp;
};

const expectRedirectHeaders = (res: Response) => {
  expect(res.status).toBe(302);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
};

describe("what the browser sees", () => {
  it("sends the security headers on the consent page and no-store/no-referrer on every redirect", async () => {
    const app = await createApp();
    const { steps } = await runFlow(await createSession(app));
    const csp = expectPageHeaders(steps.consent);
    expect(csp).not.toContain("form-action");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(steps.consentHtml).toContain(`<style nonce="${nonce}">`);
    for (const redirect of [steps.authorize, steps.decision, steps.callback]) expectRedirectHeaders(redirect);
  });

  it("gives each page its own style nonce", async () => {
    const first = await new Browser().get("/api/oauth/delegate/authorize/x");
    const second = await new Browser().get("/api/oauth/delegate/authorize/x");
    expect(first.headers.get("content-security-policy")).not.toBe(
      second.headers.get("content-security-policy"),
    );
  });

  it("sends them on error pages too, which forbid form submissions altogether", async () => {
    const res = await new Browser().get("/api/oauth/delegate/authorize/not-a-token");
    expect(res.status).toBe(400);
    expect(expectPageHeaders(res)).toContain("form-action 'none'");
  });

  it("renders the consent form the issue describes: a handle input and Allow/Deny buttons named decision", async () => {
    const app = await createApp();
    const consent = await new Browser().get(locationOf(await new Browser().get(await createSession(app))));
    const html = await consent.text();
    expect(html).toMatch(/<form method="post" action="[^"]+">/);
    expect(html).toMatch(/<input id="handle" name="handle" type="text" required/);
    expect(html).toContain('<button type="submit" name="decision" value="allow">Allow</button>');
    expect(html).toContain('<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>');
  });

  it("escapes what it echoes on the consent page", async () => {
    const browser = new Browser();
    const evil = "<script>alert(1)</script>";
    const res = await browser.get(
      `/sandbox/twitter/oauth/authorize?client_id=${encodeURIComponent(evil)}&response_type=code&redirect_uri=${encodeURIComponent("https://x.test/cb")}&code_challenge=${"a".repeat(43)}&code_challenge_method=S256`,
    );
    const html = await res.text();
    expect(html).not.toContain(evil);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("sets the browser-binding cookie HttpOnly, SameSite=Lax, scoped to the callback, Secure on https", async () => {
    const app = await createApp();
    const res = await new Browser().get(await createSession(app));
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^sp_delegation_[A-Za-z0-9_-]{22}=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain("Path=/api/oauth/delegate/callback");
    expect(cookie).toContain("Max-Age=900");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");
    expect(cookie).toContain("Secure");
  });
});

/** The worker with SANDBOX off, optionally with real platform credentials. */
async function fetchWith(overrides: Record<string, string>, path: string, init: RequestInit = {}) {
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init }),
    { ...env, SANDBOX: "false", ...overrides },
    createExecutionContext(),
  );
  return res;
}

describe("with the sandbox off", () => {
  it("the /sandbox routes do not exist, but for the consent pages of test mode", async () => {
    const consent = await fetchWith(
      {},
      "/sandbox/twitter/oauth/authorize?client_id=x&response_type=code&redirect_uri=https://x.test/cb",
    );
    expect(consent.status).toBe(400);
    for (const path of ["/sandbox/twitter/me", "/sandbox/twitter/2/tweets"]) {
      const res = await fetchWith({}, path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: "Route not found." });
    }
  });

  it("sends the browser to the real platform's consent page with its own state and PKCE S256", async () => {
    const app = await createApp();
    const creds = { TWITTER_CLIENT_ID: "x-client-id", TWITTER_CLIENT_SECRET: "x-client-secret" };
    const session = await fetchWith(creds, SESSIONS, {
      method: "POST",
      headers: { authorization: `Bearer ${app.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        platform: "twitter",
        callback_url: "https://app.example.test/cb",
        state: "app-state",
      }),
    });
    expect(session.status).toBe(200);
    const { authorize_url } = (await session.json()) as { authorize_url: string };
    const opened = await fetchWith(creds, new URL(authorize_url).pathname);
    expectRedirectHeaders(opened);
    const consent = new URL(opened.headers.get("location")!);
    expect(`${consent.origin}${consent.pathname}`).toBe("https://x.com/i/oauth2/authorize");
    const q = consent.searchParams;
    expect(q.get("client_id")).toBe("x-client-id");
    expect(q.get("response_type")).toBe("code");
    expect(q.get("redirect_uri")).toBe(`${ORIGIN}/api/oauth/delegate/callback`);
    expect(q.get("scope")).toBe("tweet.read users.read");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("code_challenge_method")).toBe("S256");
    // The service's own state, not the application's: the signed flow id and the flow's secret.
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{44}\.[A-Za-z0-9_-]{43}$/);
    expect(consent.toString()).not.toContain("app-state");
    expect(consent.toString()).not.toContain("client-secret");

    // The platform's refusal comes back without any outbound call being needed.
    const cookie = opened.headers.getSetCookie()[0]!.split(";")[0]!;
    const refused = await fetchWith(
      creds,
      `/api/oauth/delegate/callback?error=access_denied&error_description=no&state=${q.get("state")}`,
      { headers: { cookie } },
    );
    const landed = new URL(refused.headers.get("location")!);
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("state")).toBe("app-state");
  });

  it("sends no PKCE challenge to a platform whose web flow takes none", async () => {
    const app = await createApp();
    const creds = { TIKTOK_CLIENT_ID: "tt-key", TIKTOK_CLIENT_SECRET: "tt-secret" };
    const session = await fetchWith(creds, SESSIONS, {
      method: "POST",
      headers: { authorization: `Bearer ${app.key}`, "content-type": "application/json" },
      body: JSON.stringify({ platform: "tiktok", callback_url: "https://app.example.test/cb", state: "s" }),
    });
    const { authorize_url } = (await session.json()) as { authorize_url: string };
    const consent = new URL(
      (await fetchWith(creds, new URL(authorize_url).pathname)).headers.get("location")!,
    );
    expect(`${consent.origin}${consent.pathname}`).toBe("https://www.tiktok.com/v2/auth/authorize/");
    expect(consent.searchParams.get("client_key")).toBe("tt-key");
    expect(consent.searchParams.get("scope")).toBe("user.info.basic,user.info.profile");
    expect(consent.searchParams.has("code_challenge")).toBe(false);
  });

  it("connection_failed if the platform's credentials were removed after the session was created", async () => {
    const app = await createApp();
    const creds = { PINTEREST_CLIENT_ID: "p-id", PINTEREST_CLIENT_SECRET: "p-secret" };
    const session = await fetchWith(creds, SESSIONS, {
      method: "POST",
      headers: { authorization: `Bearer ${app.key}`, "content-type": "application/json" },
      body: JSON.stringify({
        platform: "pinterest",
        callback_url: "https://app.example.test/cb",
        state: "s",
      }),
    });
    const { authorize_url } = (await session.json()) as { authorize_url: string };
    const opened = await fetchWith({}, new URL(authorize_url).pathname);
    const landed = new URL(opened.headers.get("location")!);
    expect(landed.searchParams.get("error")).toBe("connection_failed");
    expect(landed.searchParams.get("error_description")).toBe("Pinterest is not available on this service.");
  });
});
