/** The origin of every absolute URL the service returns: PUBLIC_BASE_URL, else the request's origin. */
export function publicOrigin(env: Pick<Env, "PUBLIC_BASE_URL">, requestUrl: string): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, "") : new URL(requestUrl).origin;
}

/** Where background work (queue consumers, the cron) has no request: the local dev server's origin. */
export const LOCAL_ORIGIN = "http://localhost:8787";

/**
 * The origin for URLs built outside a request (a published sandbox post's URL, media links handed to
 * platforms). Production sets PUBLIC_BASE_URL; without it, the local dev server is assumed.
 */
export const backgroundOrigin = (env: Pick<Env, "PUBLIC_BASE_URL">) => publicOrigin(env, LOCAL_ORIGIN);
