// What every adapter does with a platform's answers and an account's token, written once: an answer
// read through its zod schema (a 2xx in an unexpected shape is an unknown outcome after a request that
// changes something, and simply asked again after a read), the account's access token or an `auth`
// failure, and the permanent refusal of a draft the platform cannot take.
import type { z } from "zod";
import { PlatformError } from "./types";

export function expectShape<T>(schema: z.ZodType<T>, body: unknown, what: string, changes: boolean): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new PlatformError(`${what}: unexpected answer`, {
    kind: changes ? "unknown_outcome" : "transient",
    code: "invalid_response",
  });
}

/** The account's access token; without one the account must be reconnected. */
export function accessTokenOf(label: string, account: { accessToken: string | null }): string {
  if (account.accessToken) return account.accessToken;
  throw new PlatformError(`${label}: the account has no access token; reconnect it.`, {
    kind: "auth",
    code: "token_missing",
  });
}

export const permanent = (code: string, message: string) =>
  new PlatformError(message, { kind: "permanent", code });
