// The sandbox platform: a fake of all eight platforms inside the worker (SANDBOX=true), like a payment
// provider's test mode. A consent page, a token endpoint and an identity endpoint that answer in each
// platform's own shapes (taken from its spec), plus publishing and deterministic insights.
// Codes and tokens are stateless: signed with a key derived from ENCRYPTION_KEY.
import type { Context } from "hono";
import type { Platform } from "../../db/enums";
import { bearerToken } from "../../http/auth";
import type { BareEnv } from "../../http/env";
import { createRouter } from "../../http/router";
import { derivedHmacKey, hmacSha256Hex, timingSafeEqualText, verifyHmacHex } from "../../lib/crypto";
import { fromBase64Url, toBase64Url, utf8 } from "../../lib/encoding";
import { escapeHtml, htmlPage, invalidLinkPage, redirectTo } from "../../lib/html";
import { pkceChallenge } from "../adapter";
import { isPlatform, SPECS } from "../catalog";
import type { PlatformSpec, PostMetrics } from "../types";
import { sandboxEnabled } from "./enabled";
import { digits } from "./ids";

export const HANDLE_MAX = 100;
const CODE_TTL_MS = 10 * 60_000;

/** The OAuth client the sandbox adapters present; the token endpoint checks it. */
export const sandboxClient = (platform: Platform) => ({
  clientId: `sandbox-${platform}-client`,
  clientSecret: `sandbox-${platform}-secret`,
});

type CodePayload = { p: Platform; h: string; k: string; r: string; c: string | null; e: number };
type TokenPayload = { p: Platform; h: string };

async function seal(env: Env, purpose: string, payload: object): Promise<string> {
  const body = toBase64Url(utf8(JSON.stringify(payload)));
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  return `${body}.${await hmacSha256Hex(key, body)}`;
}

async function unseal<T>(env: Env, purpose: string, sealed: string | undefined | null): Promise<T | null> {
  const [body, mac, extra] = (sealed ?? "").split(".");
  if (!body || !mac || extra !== undefined) return null;
  const key = await derivedHmacKey(env.ENCRYPTION_KEY, purpose);
  if (!(await verifyHmacHex(key, body, mac))) return null;
  return JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as T;
}

/** The platform user id for a handle: the same (platform, handle) always gives the same id. */
export async function sandboxPlatformId(platform: Platform, handle: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8(`sandbox-user:${platform}:${handle}`));
  return SPECS[platform].sandbox.platformId(new Uint8Array(digest));
}

/** Deterministic engagement numbers for a post id. */
export async function sandboxMetrics(platform: Platform, postId: string): Promise<PostMetrics> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", utf8(`sandbox-post:${platform}:${postId}`)),
  );
  const byte = (i: number) => digest[i] ?? 0;
  const impressions = 100 + (((byte(0) << 8) | byte(1)) % 9901);
  const likes = Math.floor((impressions * (1 + (byte(2) % 10))) / 100);
  const comments = Math.floor((likes * (byte(3) % 20)) / 100);
  const shares = Math.floor((likes * (byte(4) % 15)) / 100);
  const quotes =
    platform === "twitter" || platform === "threads" ? Math.floor((shares * (byte(5) % 50)) / 100) : 0;
  const saves = Math.floor((likes * (byte(6) % 25)) / 100);
  const engaged = likes + comments + shares + quotes + saves;
  const engagement_rate = Math.round((engaged / impressions) * 10_000) / 100;
  return { comments, likes, shares, impressions, quotes, saves, engagement_rate };
}

type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string | null;
};

/** The OAuth authorize request in the query, or what is wrong with it. */
function readAuthorizeRequest(spec: PlatformSpec, query: URLSearchParams): AuthorizeRequest | string {
  const clientId = query.get(spec.clientIdParam);
  if (!clientId) return `The ${spec.clientIdParam} parameter is missing.`;
  if (query.get("response_type") !== "code") return "The response_type parameter must be code.";
  const redirectUri = query.get("redirect_uri") ?? "";
  const parsed = URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  if (!parsed || !["http:", "https:"].includes(parsed.protocol))
    return "The redirect_uri parameter is invalid.";
  const challenge = query.get("code_challenge");
  if (challenge !== null) {
    if (query.get("code_challenge_method") !== "S256")
      return "Only the S256 code challenge method is supported.";
    if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return "The code_challenge parameter is malformed.";
  } else if (spec.pkce) {
    return "This platform requires PKCE: the code_challenge parameter is missing.";
  }
  return { clientId, redirectUri, state: query.get("state"), challenge };
}

function backTo(redirectUri: string, params: Record<string, string | null>): Response {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return redirectTo(url.toString());
}

function consentPage(
  spec: PlatformSpec,
  request: AuthorizeRequest,
  action: string,
  error?: string,
  handle = "",
) {
  return htmlPage({
    status: error ? 400 : 200,
    hasForm: true,
    title: `Sandbox ${spec.label}: connect your account`,
    body: `<h1>Sandbox ${escapeHtml(spec.label)}</h1>
<p><strong>${escapeHtml(request.clientId)}</strong> wants to connect your ${escapeHtml(spec.label)} account.</p>
<form method="post" action="${escapeHtml(action)}">
<label for="handle">${escapeHtml(spec.label)} handle</label>
<input id="handle" name="handle" type="text" required maxlength="${HANDLE_MAX}" autocomplete="off" autofocus value="${escapeHtml(handle)}">
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p class="muted">This is the sandbox platform: any handle works, and the handle <code>fail</code> makes the token exchange fail.</p>
<div class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  });
}

function handleProblem(handle: string): string | null {
  if (handle.trim() === "") return "Enter a handle.";
  if ([...handle].length > HANDLE_MAX) return `A handle has at most ${HANDLE_MAX} characters.`;
  if (!handle.isWellFormed()) return "The handle is not valid text.";
  return null;
}

const oauthError = (c: Context<BareEnv>, status: 400 | 401, error: string, description: string) =>
  c.json({ error, error_description: description }, status);

/** The client credentials of a token request: HTTP Basic, else the parameters. */
function clientCredentials(c: Context<BareEnv>, spec: PlatformSpec, params: URLSearchParams) {
  const basic = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
  if (basic?.[1]) {
    const decoded = atob(basic[1]);
    const colon = decoded.indexOf(":");
    return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
  }
  return { id: params.get(spec.clientIdParam) ?? "", secret: params.get("client_secret") ?? "" };
}

async function bearerPayload(c: Context<BareEnv>, platform: Platform): Promise<TokenPayload | null> {
  const token = bearerToken(c.req.header("authorization")) ?? c.req.query("access_token");
  const payload = await unseal<TokenPayload>(c.env, "sandbox-token-v1", token);
  return payload?.p === platform ? payload : null;
}

const platformOf = (c: Context<BareEnv>) => {
  const name = c.req.param("platform") ?? "";
  return isPlatform(name) ? SPECS[name] : null;
};

const unknownPlatform = (c: Context<BareEnv>) => c.json({ message: "Route not found." }, 404);

export const sandboxApp = createRouter<BareEnv>()
  .get("/:platform/oauth/authorize", (c) => {
    const spec = platformOf(c);
    if (!spec) return unknownPlatform(c);
    const url = new URL(c.req.url);
    const request = readAuthorizeRequest(spec, url.searchParams);
    if (typeof request === "string") return invalidLinkPage(request);
    return consentPage(spec, request, `${url.pathname}${url.search}`);
  })
  .post("/:platform/oauth/authorize", async (c) => {
    const spec = platformOf(c);
    if (!spec) return unknownPlatform(c);
    const url = new URL(c.req.url);
    const request = readAuthorizeRequest(spec, url.searchParams);
    if (typeof request === "string") return invalidLinkPage(request);
    const form = await c.req.parseBody();
    const decision = form.decision;
    if (decision === "deny") {
      return backTo(request.redirectUri, {
        error: spec.sandbox.denial,
        error_description: "The user denied the request.",
        state: request.state,
      });
    }
    const handle = typeof form.handle === "string" ? form.handle : "";
    if (decision !== "allow")
      return consentPage(spec, request, `${url.pathname}${url.search}`, "Choose Allow or Deny.", handle);
    const problem = handleProblem(handle);
    if (problem) return consentPage(spec, request, `${url.pathname}${url.search}`, problem, handle);
    const payload: CodePayload = {
      p: spec.platform,
      h: handle,
      k: request.clientId,
      r: request.redirectUri,
      c: request.challenge,
      e: Date.now() + CODE_TTL_MS,
    };
    return backTo(request.redirectUri, {
      code: await seal(c.env, "sandbox-code-v1", payload),
      state: request.state,
    });
  })
  .on(["GET", "POST"], "/:platform/oauth/token", async (c) => {
    const spec = platformOf(c);
    if (!spec) return unknownPlatform(c);
    const params = new URLSearchParams(new URL(c.req.url).search);
    if (c.req.method === "POST") {
      const form = await c.req.parseBody();
      for (const [name, value] of Object.entries(form))
        if (typeof value === "string") params.set(name, value);
    }
    if (params.get("grant_type") !== "authorization_code") {
      return oauthError(c, 400, "unsupported_grant_type", "Only authorization_code is supported.");
    }
    const client = clientCredentials(c, spec, params);
    const expected = sandboxClient(spec.platform);
    if (client.id !== expected.clientId || !timingSafeEqualText(client.secret, expected.clientSecret)) {
      return oauthError(c, 401, "invalid_client", "Client authentication failed.");
    }
    const code = await unseal<CodePayload>(c.env, "sandbox-code-v1", params.get("code"));
    if (!code || code.p !== spec.platform || code.k !== client.id || code.e <= Date.now()) {
      return oauthError(c, 400, "invalid_grant", "The authorization code is invalid or expired.");
    }
    if (params.get("redirect_uri") !== code.r) {
      return oauthError(
        c,
        400,
        "invalid_grant",
        "The redirect_uri does not match the authorization request.",
      );
    }
    if (code.c !== null) {
      const verifier = params.get("code_verifier") ?? "";
      if (!verifier || (await pkceChallenge(verifier)) !== code.c) {
        return oauthError(c, 400, "invalid_grant", "The code_verifier does not match the code challenge.");
      }
    }
    if (code.h === "fail") {
      return oauthError(
        c,
        400,
        "invalid_grant",
        'Sandbox: the handle "fail" always fails the token exchange.',
      );
    }
    const token = await seal(c.env, "sandbox-token-v1", {
      p: spec.platform,
      h: code.h,
    } satisfies TokenPayload);
    return c.json(
      spec.sandbox.tokenResponse(token, await sandboxPlatformId(spec.platform, code.h)) as object,
    );
  })
  .get("/:platform/me", async (c) => {
    const spec = platformOf(c);
    if (!spec) return unknownPlatform(c);
    const token = await bearerPayload(c, spec.platform);
    if (!token) return oauthError(c, 401, "invalid_token", "The access token is invalid.");
    const id = await sandboxPlatformId(spec.platform, token.h);
    return c.json(spec.sandbox.identityResponse(id, token.h) as object);
  })
  .post("/:platform/posts", async (c) => {
    const spec = platformOf(c);
    if (!spec) return unknownPlatform(c);
    const token = await bearerPayload(c, spec.platform);
    if (!token) return oauthError(c, 401, "invalid_token", "The access token is invalid.");
    const post = await c.req.json().catch(() => null);
    const textValue =
      typeof post === "object" && post !== null ? (post as { text?: unknown }).text : undefined;
    if (typeof textValue !== "string") return oauthError(c, 400, "invalid_request", "The post needs a text.");
    const id = digits(crypto.getRandomValues(new Uint8Array(16)), 18);
    const url = `${new URL(c.req.url).origin}/sandbox/${spec.platform}/posts/${id}`;
    return c.json({ id, url }, 201);
  })
  .get("/:platform/posts/:id", (c) => {
    const spec = platformOf(c);
    const id = c.req.param("id");
    if (!spec || !/^\d{1,20}$/.test(id)) return unknownPlatform(c);
    return c.json({ id, platform: spec.platform });
  })
  .get("/:platform/posts/:id/insights", async (c) => {
    const spec = platformOf(c);
    const id = c.req.param("id");
    if (!spec || !/^\d{1,20}$/.test(id)) return unknownPlatform(c);
    if (!(await bearerPayload(c, spec.platform))) {
      return oauthError(c, 401, "invalid_token", "The access token is invalid.");
    }
    return c.json(await sandboxMetrics(spec.platform, id));
  });

/** /sandbox/…: exists (anything but 404) only while SANDBOX is "true". */
export const sandboxRouter = createRouter<BareEnv>()
  .use("*", async (c, next) => {
    if (!sandboxEnabled(c.env)) return c.notFound();
    await next();
  })
  .route("/", sandboxApp);
