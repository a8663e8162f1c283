// Issue 10, secrets in URLs: no outgoing platform URL carries a client secret, a code or an access token,
// and nothing the service logs or puts in a PlatformError quotes one, whatever the platform answers.
import { afterEach, describe, expect, it, vi } from "vitest";
import { PLATFORMS, type Platform } from "../../src/db/enums";
import { callPlatform, redactUrl } from "../../src/platforms/call";
import { SPECS } from "../../src/platforms/catalog";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { PlatformError } from "../../src/platforms/types";
import { RECORDED } from "../platforms/recorded";
import { adapterFor, CREDENTIALS, json, replay } from "../platforms/replay";
import { ORIGIN } from "../support/client";

afterEach(() => vi.restoreAllMocks());

const CODE = "code-789-secret";
const REDIRECT_URI = `${ORIGIN}/api/oauth/delegate/callback`;
const VERIFIER = "v".repeat(43);

/** Every value that must never appear in a URL, a log line or an error message. */
function secretsOf(platform: Platform): string[] {
  const token = SPECS[platform].parseToken(RECORDED[platform].token)!.accessToken;
  return [CREDENTIALS.clientSecret, CODE, token];
}

const SECRET_PAIR = /(access_token|client_secret|code|refresh_token)=(?!…)[^&\s"]/;

/** Spies on every console method; returns what was logged, as text. */
function captureConsole() {
  const lines: string[] = [];
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      lines.push(
        args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(" "),
      );
    });
  }
  return lines;
}

describe("the token exchange and identity calls keep secrets out of URLs", () => {
  it("Facebook exchanges the code with a POST form body, not a GET query", async () => {
    const { fetch, requests } = replay(json(RECORDED.facebook.token));
    await adapterFor("facebook", fetch).exchangeCode({ code: CODE, redirectUri: REDIRECT_URI });
    const [request] = requests as [Request];
    expect(request.method).toBe("POST");
    expect(new URL(request.url).search).toBe("");
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    const form = new URLSearchParams(await request.text());
    expect(form.get("client_secret")).toBe("secret-456");
    expect(form.get("code")).toBe(CODE);
  });

  it.each(PLATFORMS)(
    "%s: no request URL carries a secret; identity sends the token as a Bearer header",
    async (platform) => {
      const recorded = RECORDED[platform];
      const { fetch, requests } = replay(json(recorded.token), json(recorded.identity));
      const adapter = adapterFor(platform, fetch);
      const token = await adapter.exchangeCode({
        code: CODE,
        redirectUri: REDIRECT_URI,
        codeVerifier: VERIFIER,
      });
      expect(await adapter.identity(token)).toEqual(recorded.expected);
      for (const request of requests) {
        for (const secret of secretsOf(platform)) expect(request.url).not.toContain(secret);
        expect(request.url).not.toMatch(SECRET_PAIR);
      }
      expect(requests[1]!.headers.get("authorization")).toBe(`Bearer ${token.accessToken}`);
    },
  );
});

describe("redactUrl", () => {
  it.each([
    [
      "https://graph.facebook.com/v25.0/me?fields=id&access_token=EAAx",
      "https://graph.facebook.com/v25.0/me?…",
    ],
    ["https://api.x.com/2/users/me", "https://api.x.com/2/users/me"],
    ["https://api.x.com/2/users/me?", "https://api.x.com/2/users/me?…"],
    ["https://user:pw@p.test/a#frag", "https://p.test/a"],
    ["not a url?client_secret=s", "not a url?…"],
  ])("%s → %s", (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });
});

describe("nothing logged or thrown quotes a secret, whatever the platform answers", () => {
  /** Answers that echo what they were sent: the URL with its query, or the parameters themselves. */
  const echoes = (platform: Platform): Array<Response | Error> => {
    const [secret, code, token] = secretsOf(platform);
    const url = `${SPECS[platform].endpoints.identity}?fields=id&access_token=${token}`;
    return [
      json({ error: { message: `Invalid OAuth access token for ${url}`, code: 190 } }, 400),
      json({ error: "invalid_client", error_description: `client_secret=${secret} is wrong` }, 401),
      json({ message: `The code=${code} was already used`, access_token: token }, 400),
      json({ detail: `Retry ${url}` }, 503),
      json({ error: "invalid_grant", error_description: `code=${code}` }, 200),
      new TypeError(`fetch failed: ${SPECS[platform].endpoints.token}?client_secret=${secret}&code=${code}`),
      new Response(`<html>${url}</html>`, { status: 200 }),
    ];
  };

  it.each(PLATFORMS)("%s: the OAuth steps and a quoting call", async (platform) => {
    const lines = captureConsole();
    const messages: string[] = [];
    const recorded = RECORDED[platform];
    const failures: Array<() => Promise<unknown>> = [];
    for (const answer of [...echoes(platform), json(recorded.tokenError.body, recorded.tokenError.status)]) {
      const adapter = adapterFor(platform, replay(answer).fetch);
      failures.push(() =>
        adapter.exchangeCode({ code: CODE, redirectUri: REDIRECT_URI, codeVerifier: VERIFIER }),
      );
    }
    for (const answer of echoes(platform)) {
      const adapter = adapterFor(platform, replay(answer).fetch);
      failures.push(() => adapter.identity({ accessToken: secretsOf(platform)[2]! }));
    }
    for (const answer of echoes(platform)) {
      // Publishing quotes the platform's own error text: it must still not carry a secret.
      failures.push(() =>
        callPlatform(replay(answer).fetch, `${SPECS[platform].label} publish`, `${ORIGIN}/p`, {}),
      );
    }
    for (const attempt of failures) {
      const error = await attempt().then(
        () => null,
        (failure: unknown) => failure,
      );
      if (error === null) continue;
      expect(error).toBeInstanceOf(PlatformError);
      messages.push((error as PlatformError).message);
      // What the delegation callback logs for a failed step.
      console.warn(`delegation: ${(error as PlatformError).message}`);
    }
    expect(messages.length).toBeGreaterThan(15);
    expect(messages.some((message) => message.includes("Invalid OAuth access token for https://"))).toBe(
      true,
    );
    for (const text of [...messages, ...lines]) {
      for (const secret of secretsOf(platform)) expect(text).not.toContain(secret);
      expect(text).not.toMatch(SECRET_PAIR);
    }
  });

  it("the in-process sandbox fetch names a refused URL without its query", async () => {
    const fetch = sandboxFetch(ORIGIN);
    const failure = await fetch("https://evil.test/x?access_token=tok-123&client_secret=s").catch((e) => e);
    expect(String(failure.message)).toContain("https://evil.test/x?…");
    expect(String(failure.message)).not.toContain("tok-123");
  });
});

// Robustness, third round, item 9: Meta documents its long-lived token calls only as GETs with their
// parameters in the query (Instagram ig_exchange_token and ig_refresh_token, Threads th_exchange_token
// and th_refresh_token; docs/security.md says so). Those four are the only URLs that may carry a secret
// or a token, with exactly the parameters Meta requires; Facebook's fb_exchange_token goes in a POST form
// body. Whatever those calls answer, nothing logged or thrown quotes what their URLs carried.
describe("the long-lived token calls Meta requires in a query", () => {
  const LONG = "long-lived-token-42";
  const longLived = { access_token: LONG, token_type: "bearer", expires_in: 5183944 };
  const shortOf = (platform: Platform) => SPECS[platform].parseToken(RECORDED[platform].token)!.accessToken;

  /** Where a secret or token may travel in a URL, and exactly what the query then holds. */
  const IN_QUERY: Partial<Record<Platform, { exchange: [string, object]; refresh: [string, object] }>> = {
    instagram: {
      exchange: [
        "https://graph.instagram.com/access_token",
        {
          grant_type: "ig_exchange_token",
          client_secret: CREDENTIALS.clientSecret,
          access_token: shortOf("instagram"),
        },
      ],
      refresh: [
        "https://graph.instagram.com/refresh_access_token",
        { grant_type: "ig_refresh_token", access_token: LONG },
      ],
    },
    threads: {
      exchange: [
        "https://graph.threads.net/access_token",
        {
          grant_type: "th_exchange_token",
          client_secret: CREDENTIALS.clientSecret,
          access_token: shortOf("threads"),
        },
      ],
      refresh: [
        "https://graph.threads.net/refresh_access_token",
        { grant_type: "th_refresh_token", access_token: LONG },
      ],
    },
  };

  const pathOf = (request: Request) => request.url.split("?")[0];
  const queryOf = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

  it.each(PLATFORMS)(
    "%s: a connect's exchange and a refresh put secrets in a URL only where required",
    async (platform) => {
      const recorded = RECORDED[platform];
      const connect = replay(json(recorded.token), json(longLived));
      await adapterFor(platform, connect.fetch).exchangeCode({
        code: CODE,
        redirectUri: REDIRECT_URI,
        codeVerifier: VERIFIER,
        purpose: "connect",
      });
      const refresh = replay(
        json(platform === "instagram" || platform === "threads" ? longLived : recorded.token),
      );
      await adapterFor(platform, refresh.fetch).refreshToken(LONG);
      const [exchange, second] = connect.requests;
      const [renewal] = refresh.requests as [Request];
      // The code exchange itself is always a POST form body.
      expect(exchange!.method).toBe("POST");
      expect(new URL(exchange!.url).search).toBe("");
      const expected = IN_QUERY[platform];
      if (expected) {
        expect(second!.method).toBe("GET");
        expect([pathOf(second!), queryOf(second!)]).toEqual(expected.exchange);
        expect(renewal.method).toBe("GET");
        expect([pathOf(renewal), queryOf(renewal)]).toEqual(expected.refresh);
        return;
      }
      for (const request of [...connect.requests, renewal]) {
        for (const secret of [...secretsOf(platform), LONG]) expect(request.url).not.toContain(secret);
        expect(request.url).not.toMatch(SECRET_PAIR);
        expect(request.url).not.toMatch(/exchange_token|fb_exchange/);
      }
      if (platform === "facebook") {
        // fb_exchange_token: documented as a GET too, but the Graph API takes it as a POST form body.
        expect(second!.method).toBe("POST");
        const form = new URLSearchParams(await second!.text());
        expect(form.get("grant_type")).toBe("fb_exchange_token");
        expect(form.get("client_secret")).toBe(CREDENTIALS.clientSecret);
        expect(form.get("fb_exchange_token")).toBe(shortOf("facebook"));
      }
    },
  );

  /** Answers that echo the request's own URL, query included, or the secrets themselves. */
  const echoes = (secret: string, token: string): Array<(url: string) => Response | Error> => [
    (url) =>
      json(
        { error: { message: `Invalid OAuth access token for ${url}`, type: "OAuthException", code: 190 } },
        400,
      ),
    (url) => json({ error: { message: `Please retry ${url}`, code: 2, is_transient: true } }, 500),
    (url) => json({ error: { message: `Error validating application: ${url}`, code: 101 } }, 400),
    () =>
      json({ error: { message: `client_secret=${secret} access_token=${token} refused`, code: 100 } }, 400),
    (url) => json({ echo: url, access_token: null }, 200),
    (url) => new Response(`<html>${url}</html>`, { status: 200 }),
    (url) => new TypeError(`fetch failed: ${url}`),
  ];

  /** A fetch answering the code exchange with the recorded token, then every later call with `answer`. */
  function echoing(platform: Platform, answer: (url: string) => Response | Error) {
    return async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const form = request.method === "POST" ? await request.clone().text() : "";
      if (form.includes("grant_type=authorization_code")) return json(RECORDED[platform].token);
      const next = answer(request.url);
      if (next instanceof Error) throw next;
      return next;
    };
  }

  it.each(["instagram", "threads", "facebook"] as const)(
    "%s: nothing logged or thrown by a failed exchange or refresh quotes what its URL carried",
    async (platform) => {
      const lines = captureConsole();
      const messages: string[] = [];
      const secret = CREDENTIALS.clientSecret;
      const short = shortOf(platform);
      const attempts: Array<() => Promise<unknown>> = [];
      for (const answer of echoes(secret, short)) {
        attempts.push(() =>
          adapterFor(platform, echoing(platform, answer)).exchangeCode({
            code: CODE,
            redirectUri: REDIRECT_URI,
            codeVerifier: VERIFIER,
            purpose: "connect",
          }),
        );
      }
      for (const answer of echoes(secret, LONG))
        attempts.push(() => adapterFor(platform, echoing(platform, answer)).refreshToken(LONG));
      for (const attempt of attempts) {
        const error = await attempt().then(
          () => null,
          (failure: unknown) => failure,
        );
        if (error === null) continue;
        messages.push(error instanceof Error ? error.message : String(error));
        // What a connect's callback and the refresh log for a failed step.
        console.warn(`accounts: ${error instanceof Error ? error.message : String(error)}`);
      }
      expect(messages.length).toBeGreaterThanOrEqual(10);
      for (const text of [...messages, ...lines]) {
        for (const value of [secret, short, LONG, CODE]) expect(text).not.toContain(value);
        expect(text).not.toMatch(SECRET_PAIR);
      }
    },
  );
});
