// The body of POST /api/oauth/delegate/sessions.
import { z } from "zod";

export const STATE_MAX = 512;
export const CALLBACK_URL_MAX = 2048;

/** Query parameters the service adds to callback_url, which it must not already carry. */
export const PROOF_PARAMS = [
  "platform",
  "platform_id",
  "handle",
  "state",
  "expires",
  "sig",
  "error",
  "error_description",
] as const;

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);
const isLoopback = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

const length = (value: string) => [...value].length;

const callbackUrl = z
  .string()
  .max(CALLBACK_URL_MAX)
  .superRefine((value, ctx) => {
    const fail = (message: string) =>
      ctx.addIssue({ code: "custom", message: `The callback url ${message}` });
    if (!URL.canParse(value)) return fail("must be an absolute URL.");
    const url = new URL(value);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
      return fail("must use https (http is allowed only for localhost, 127.0.0.1 and [::1]).");
    }
    if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(value)) {
      return fail("must not contain a user name or password.");
    }
    if (value.includes("#")) return fail("must not contain a fragment (#).");
    const taken = PROOF_PARAMS.filter((name) => url.searchParams.has(name));
    if (taken.length > 0) {
      return fail(`must not already contain the parameters the service adds: ${taken.join(", ")}.`);
    }
  })
  // The URL serialisation (spaces and non-ASCII percent-encoded) is what the Location header carries.
  .transform((value) => new URL(value).href);

export const sessionBody = z.object({
  platform: z.string().min(1).max(64),
  callback_url: callbackUrl,
  state: z
    .string()
    .min(1)
    .refine((value) => length(value) <= STATE_MAX, {
      message: `The state field must not be greater than ${STATE_MAX} characters.`,
    })
    .refine((value) => value.isWellFormed(), { message: "The state field must be valid Unicode text." }),
});

export type SessionBody = z.infer<typeof sessionBody>;
