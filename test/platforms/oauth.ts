// The sandbox's OAuth endpoints driven by hand, the way each platform's client calls them: a code through
// the consent pages, and raw token requests with the client authentication the platform's adapter uses.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Platform } from "../../src/db/enums";
import { pkceChallenge } from "../../src/platforms/adapter";
import { SPECS } from "../../src/platforms/catalog";
import { lookupAdapter } from "../../src/platforms/index";
import { sandboxClient } from "../../src/platforms/sandbox/credentials";
import type { PlatformAdapter } from "../../src/platforms/types";
import { formAction } from "../delegation/support";
import { ORIGIN } from "../support/client";
import { send } from "./support";

export const REDIRECT_URI = `${ORIGIN}/api/oauth/delegate/callback`;
export const VERIFIER = "sandbox-test-verifier-".padEnd(43, "x");

export function sandboxAdapter(platform: Platform): PlatformAdapter {
  const lookup = lookupAdapter(env, platform, ORIGIN, "live");
  if (lookup.kind !== "ok") throw new Error("the sandbox should serve every platform");
  return lookup.adapter;
}

/** The consent form's action for an authorize request the platform's adapter builds. */
export async function consentAction(platform: Platform, redirectUri = REDIRECT_URI): Promise<string> {
  const adapter = sandboxAdapter(platform);
  const challenge = adapter.pkce ? await pkceChallenge(VERIFIER) : undefined;
  const url = new URL(await adapter.authorizeUrl({ redirectUri, state: "st", codeChallenge: challenge }));
  const page = await send(`${url.pathname}${url.search}`);
  expect(page.status).toBe(200);
  return formAction(await page.text());
}

export const formPost = (path: string, form: Record<string, string>) =>
  send(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });

/** A code for `handle`, through the consent pages. */
export async function codeFor(platform: Platform, handle = "ada", redirectUri = REDIRECT_URI) {
  const decided = await formPost(await consentAction(platform, redirectUri), { handle, decision: "allow" });
  expect(decided.status).toBe(302);
  const code = new URL(decided.headers.get("location")!).searchParams.get("code");
  expect(code).toBeTruthy();
  return code!;
}

/** A POST to the token endpoint with the client credentials where the platform takes them. */
export function tokenRequest(
  platform: Platform,
  params: Record<string, string>,
  client: { clientId: string; clientSecret: string } = sandboxClient(platform),
) {
  const spec = SPECS[platform];
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  const body = new URLSearchParams(params);
  if (spec.tokenAuth === "basic") {
    headers.authorization = `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`;
  } else {
    body.set(spec.clientIdParam, client.clientId);
    body.set("client_secret", client.clientSecret);
  }
  return send(`/sandbox/${platform}/oauth/token`, { method: "POST", headers, body });
}

/** The code exchange as the platform's adapter sends it. */
export const exchange = (platform: Platform, code: string, redirectUri = REDIRECT_URI) =>
  tokenRequest(platform, {
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    ...(SPECS[platform].pkce ? { code_verifier: VERIFIER } : {}),
  });

/** The access token of a token answer, in whichever shape the platform answers. */
export function accessTokenOf(platform: Platform, body: unknown): string {
  const token = SPECS[platform].parseToken(body);
  expect(token).not.toBeNull();
  return token!.accessToken;
}

/** Status and JSON body of a response, for answers that must be an OAuth error. */
export async function oauthFailure(res: Response) {
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = (await res.json()) as { error: unknown; error_description: unknown };
  expect(typeof body.error).toBe("string");
  expect(typeof body.error_description).toBe("string");
  return { status: res.status, error: body.error as string };
}
