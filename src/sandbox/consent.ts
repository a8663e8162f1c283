// The sandbox's consent step, as a platform's authorize page would do it: read and check the OAuth
// authorize request, show the page that asks for a handle and Allow/Deny, and send the browser back
// to the client's redirect_uri. Like a platform that only redirects to an app's registered callbacks,
// it knows one client per platform (sandboxClient) and only redirects to the service's own origin,
// where every sandbox client's callback lives: anything else is a 400 page, never a redirect.
import { escapeHtml, htmlPage, redirectTo } from "../lib/html";
import { sandboxClient } from "../platforms/sandbox/credentials";
import type { EmulatedPlatform } from "./shapes";

export const HANDLE_MAX = 100;
const REDIRECT_URI_MAX = 2048;

export type AuthorizeRequest = {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string | null;
  /** The scopes asked for (`scope`, split on spaces or commas as platforms write them); null: none named. */
  scopes: string[] | null;
};

/** Scopes named at most; more is not an authorize request of ours. */
const SCOPES_MAX = 50;

/** What is wrong with a redirect_uri for a service on `origin`, else null. */
function redirectProblem(redirectUri: string, origin: string): string | null {
  const parsed =
    redirectUri.length <= REDIRECT_URI_MAX && URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  // RFC 6749 §3.1.2: no fragment. Userinfo has no business in a callback either.
  if (
    !parsed ||
    !["http:", "https:"].includes(parsed.protocol) ||
    redirectUri.includes("#") ||
    parsed.username ||
    parsed.password
  ) {
    return "The redirect_uri parameter is invalid.";
  }
  return parsed.origin === origin ? null : "The redirect_uri is not registered for this client.";
}

/** The OAuth authorize request in the query, or what is wrong with it. */
export function readAuthorizeRequest(
  spec: EmulatedPlatform,
  query: URLSearchParams,
  origin: string,
): AuthorizeRequest | string {
  const clientId = query.get(spec.clientIdParam);
  if (!clientId) return `The ${spec.clientIdParam} parameter is missing.`;
  if (clientId !== sandboxClient(spec.platform).clientId) {
    // Named (cut short) so that whoever made the link sees which client was refused; the page escapes it.
    return `Sandbox ${spec.label} has no client "${[...clientId].slice(0, 100).join("")}".`;
  }
  if (query.get("response_type") !== "code") return "The response_type parameter must be code.";
  const redirectUri = query.get("redirect_uri") ?? "";
  const problem = redirectProblem(redirectUri, origin);
  if (problem) return problem;
  const challenge = query.get("code_challenge");
  if (challenge !== null) {
    if (query.get("code_challenge_method") !== "S256")
      return "Only the S256 code challenge method is supported.";
    if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) return "The code_challenge parameter is malformed.";
  } else if (spec.pkce) {
    return "This platform requires PKCE: the code_challenge parameter is missing.";
  }
  const scope = query.get("scope");
  const scopes = scope === null ? null : scope.split(/[\s,]+/).filter((name) => name !== "");
  if (scopes && (scopes.length > SCOPES_MAX || scopes.some((name) => name.length > 200)))
    return "The scope parameter is invalid.";
  return { clientId, redirectUri, state: query.get("state"), challenge, scopes };
}

/** A redirect to the client's redirect_uri with the given parameters (null ones left out). */
export function backTo(redirectUri: string, params: Record<string, string | null>): Response {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return redirectTo(url.toString());
}

export function consentPage(
  spec: EmulatedPlatform,
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
<p class="muted"><strong>Test mode:</strong> this is an emulator of ${escapeHtml(spec.label)}, not ${escapeHtml(spec.label)} itself. Nothing you connect or publish here reaches the real platform. Any handle works, and the handle <code>fail</code> makes the token exchange fail.</p>
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
