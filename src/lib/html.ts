// What a browser sees during delegation (error pages, the sandbox consent page, redirects), with the
// headers that keep those responses out of caches, frames and Referer headers.
import { randomToken } from "../lib/crypto";

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);

/** Every browser-facing response, redirects included: never cached, never leaks its URL as Referer. */
export const NO_STORE_HEADERS = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } as const;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1f2328}
h1{font-size:1.4rem}label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
.actions{display:flex;gap:.5rem;margin-top:1rem}button{font:inherit;padding:.5rem 1rem;cursor:pointer}
.error{color:#b42318}.muted{color:#59636e;font-size:.9rem}`;

export type PageOptions = {
  title: string;
  /** Trusted HTML: callers escape every interpolated value with escapeHtml. */
  body: string;
  status?: 200 | 400 | 500;
  /**
   * The page holds a form. CSP form-action is then left open: browsers apply it to every redirect that
   * follows the submission, and the consent form ends on the application's callback, whose origin the
   * page cannot know. Pages without a form forbid submissions entirely.
   */
  hasForm?: boolean;
  /** Whether the page shows images from its own origin (the sandbox's post pages). */
  images?: boolean;
};

export function htmlPage({
  title,
  body,
  status = 200,
  hasForm = false,
  images = false,
}: PageOptions): Response {
  const nonce = randomToken(16);
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    ...(images ? ["img-src 'self'"] : []),
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...(hasForm ? [] : ["form-action 'none'"]),
  ].join("; ");
  const document = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
${body}
</body>
</html>
`;
  return new Response(document, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      ...NO_STORE_HEADERS,
      "Content-Security-Policy": csp,
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** A 302 with the no-store / no-referrer headers, plus any extra ones (Set-Cookie). */
export function redirectTo(location: string, extra: [string, string][] = []): Response {
  const headers = new Headers({ Location: location, ...NO_STORE_HEADERS });
  for (const [name, value] of extra) headers.append(name, value);
  return new Response(null, { status: 302, headers });
}

/** The page for requests that have nowhere to be redirected: unknown, tampered or malformed links. */
export const invalidLinkPage = (detail: string) =>
  htmlPage({
    status: 400,
    title: "This link cannot be used",
    body: `<h1>This link cannot be used</h1>
<p>${escapeHtml(detail)}</p>
<p class="muted">Go back to the application you came from and start connecting your account again.</p>`,
  });
