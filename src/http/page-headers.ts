// The headers of every server-rendered page (the console, review links): nothing but the worker's own
// origin, never framed or cached, forms posting only here.

/** The page's headers; `script` is `'self'` only for the pages that run the console's one script. */
export const pageHeaders = (script: "'none'" | "'self'" = "'none'"): Record<string, string> => ({
  "Content-Security-Policy": `default-src 'self'; script-src ${script}; base-uri 'none'; frame-ancestors 'none'; form-action 'self'`,
  "Cache-Control": "no-store",
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts, which the
  // pages' Origin checks must refuse; no page links off the origin, so nothing else would carry a Referer.
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
});
