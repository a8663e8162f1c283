// Issue 10, secrets in URLs: no outgoing platform URL carries a client secret, a code or an access token,
// and nothing the service logs or puts in a PlatformError quotes one, whatever the platform answers.
import { env } from "cloudflare:workers";
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
    const fetch = sandboxFetch(env, ORIGIN);
    const failure = await fetch("https://evil.test/x?access_token=tok-123&client_secret=s").catch((e) => e);
    expect(String(failure.message)).toContain("https://evil.test/x?…");
    expect(String(failure.message)).not.toContain("tok-123");
  });
});
