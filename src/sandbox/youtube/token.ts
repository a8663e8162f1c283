// Google's OAuth facts for the YouTube emulator (`youtubeShape`: an hour's access token, a refresh token
// that does not rotate, the channel as identity) and its revocation endpoint. The code exchange and
// refresh are the sandbox's generic token endpoint, answered in this shape.
// developers.google.com › Using OAuth 2.0 for Web Server Applications (token answer, Revoking a token);
// YouTube Data API › Channels: list.

import { letters } from "../../platforms/sandbox/ids";
import { isRefresh, REFRESH_PURPOSE, spaceOf, unseal } from "../../platforms/sandbox/seal";
import { checkToken } from "../access";
import { isProblem, readForm } from "../body";
import type { Emulated } from "../emulator";
import { revokedSince } from "../grants";
import type { SandboxShape } from "../shapes";
import { json } from "./errors";
import type { Req } from "./rules";

const DAY = 86_400;

/**
 * The scopes the emulated app is granted: those the YouTube Data API names for what the emulator serves
 * (reading the channel and videos, uploading, comments).
 */
export const GRANTED_SCOPES = [
  "https://www.googleapis.com/auth/youtube.readonly",
  "https://www.googleapis.com/auth/youtube.upload",
  "https://www.googleapis.com/auth/youtube.force-ssl",
];

/** Google's tokens and answers, as its OAuth page describes them; the identity is channels.list mine. */
export const youtubeShape: SandboxShape = {
  // The consent and token endpoints as Google › OAuth 2.0 for Web Server Applications names them.
  label: "YouTube",
  paths: { authorize: "/o/oauth2/v2/auth", token: "/token", identity: "/youtube/v3/channels" },
  clientIdParam: "client_id",
  pkce: true,
  denial: "access_denied",
  // A channel id: UC and 22 characters.
  platformId: (digest) => `UC${letters(digest, 22)}`,
  accessTtl: 3599,
  // Google's refresh answer carries no refresh token: the first one stays valid.
  refresh: { ttl: 180 * DAY, rotates: false },
  tokenResponse: (tokens) => ({
    access_token: tokens.accessToken,
    expires_in: tokens.expiresIn,
    ...(tokens.grant === "authorization_code" && tokens.refreshToken !== null
      ? { refresh_token: tokens.refreshToken }
      : {}),
    scope: GRANTED_SCOPES.join(" "),
    token_type: "Bearer",
  }),
  identityResponse: (id, handle) => ({
    kind: "youtube#channelListResponse",
    etag: "sandbox",
    pageInfo: { totalResults: 1, resultsPerPage: 5 },
    items: [
      {
        kind: "youtube#channel",
        etag: "sandbox",
        id,
        snippet: { title: handle, description: "", customUrl: `@${handle}` },
      },
    ],
  }),
};

/**
 * POST oauth2.googleapis.com/revoke (Using OAuth 2.0 for Web Server Applications › Revoking a token): an
 * access or refresh token, as a form (or the query); revoking either ends the whole grant. 200 with no
 * body; 400 invalid_token.
 */
export async function revoke(emulated: Emulated, req: Req): Promise<Response> {
  const form = await readForm(req.raw);
  const token = (isProblem(form) ? null : form.get("token")) ?? req.query("token") ?? null;
  const invalid = () => json({ error: "invalid_token", error_description: "Token expired or revoked" }, 400);
  if (!token) return invalid();
  const access = await checkToken(emulated.env, "youtube", token);
  let handle: string | null = access.kind === "ok" ? access.handle : null;
  let space = access.kind === "ok" ? access.space : null;
  if (!handle && access.kind === "invalid") {
    const refresh = await unseal<unknown>(emulated.env, REFRESH_PURPOSE, token);
    if (
      isRefresh(refresh) &&
      refresh.p === "youtube" &&
      refresh.e > Date.now() &&
      !revokedSince(refresh.i, await emulated.storeOf(spaceOf(refresh)).revokedAt(refresh.h))
    ) {
      handle = refresh.h;
      space = spaceOf(refresh);
    }
  }
  if (!handle) return invalid();
  await emulated.storeOf(space).revoke(handle);
  return new Response(null, { status: 200 });
}
