/**
 * Every OAuth-protocol failure of the sandbox (token endpoint, identity endpoint), in the body real
 * platforms answer with: `{error, error_description}`.
 */
export const oauthError = (status: 400 | 401, error: string, description: string): Response =>
  Response.json({ error, error_description: description }, { status });
