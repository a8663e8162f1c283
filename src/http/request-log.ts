// One log line per request, in place of the platform's invocation logs (off in wrangler.toml): method,
// path without its query (where delegation codes, states and link signatures travel), status, time.
import { createMiddleware } from "hono/factory";

/** A URL for logs: the path, with `?…` standing for any query and `…` for a console sign-in link's token. */
export function redactedPath(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/^(\/console\/sign-in\/)[^/]+/, "$1…");
  return `${path}${parsed.search ? "?…" : ""}`;
}

export const requestLog = createMiddleware(async (c, next) => {
  const started = performance.now();
  try {
    await next();
  } finally {
    console.info(
      JSON.stringify({
        method: c.req.method,
        path: redactedPath(c.req.url),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      }),
    );
  }
});
