/** The origin of every absolute URL the service returns: PUBLIC_BASE_URL, else the request's origin. */
export function publicOrigin(env: Pick<Env, "PUBLIC_BASE_URL">, requestUrl: string): string {
  const configured = env.PUBLIC_BASE_URL?.trim();
  return configured ? configured.replace(/\/+$/, "") : new URL(requestUrl).origin;
}
