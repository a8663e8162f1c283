// The sandbox's consent step, as a platform's authorize page would do it: read and check the OAuth
// authorize request, show the page that asks for a handle and Allow/Deny, and send the browser back
// to the client's redirect_uri.
import { escapeHtml, htmlPage, redirectTo } from "../../lib/html";
import type { PlatformSpec } from "../types";

export const HANDLE_MAX = 100;

export type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string | null;
};

/** The OAuth authorize request in the query, or what is wrong with it. */
export function readAuthorizeRequest(spec: PlatformSpec, query: URLSearchParams): AuthorizeRequest | string {
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

/** A redirect to the client's redirect_uri with the given parameters (null ones left out). */
export function backTo(redirectUri: string, params: Record<string, string | null>): Response {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return redirectTo(url.toString());
}

export function consentPage(
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

/** What is wrong with a handle typed on the consent page, else null. */
export function handleProblem(handle: string): string | null {
  if (handle.trim() === "") return "Enter a handle.";
  if ([...handle].length > HANDLE_MAX) return `A handle has at most ${HANDLE_MAX} characters.`;
  if (!handle.isWellFormed()) return "The handle is not valid text.";
  return null;
}
