// The body and the answer of POST /api/oauth/delegate/sessions.
import { z } from "zod";
import { PLATFORMS } from "../db/enums";
import { isSignableValue } from "../verify-proof";

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

/**
 * A URL the service sends a browser back to, with parameters of its own added: absolute, https (http
 * only on loopback), no credentials, no fragment, none of `reserved`. `label` names the field in messages.
 */
export const returnUrl = (label: string, reserved: readonly string[]) =>
  z
    .string()
    .max(CALLBACK_URL_MAX)
    .superRefine((value, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: "custom", message: `The ${label} ${message}` });
      if (!URL.canParse(value)) return fail("must be an absolute URL.");
      const url = new URL(value);
      if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
        return fail("must use https (http is allowed only for localhost, 127.0.0.1 and [::1]).");
      }
      if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(value)) {
        return fail("must not contain a user name or password.");
      }
      if (value.includes("#")) return fail("must not contain a fragment (#).");
      const taken = reserved.filter((name) => url.searchParams.has(name));
      if (taken.length > 0) {
        return fail(`must not already contain the parameters the service adds: ${taken.join(", ")}.`);
      }
    })
    // The URL serialisation (spaces and non-ASCII percent-encoded) is what the Location header carries.
    .transform((value) => new URL(value).href);

const callbackUrl = returnUrl("callback url", PROOF_PARAMS);

// The platform is any short string here: an unknown one is the coded `unsupported_platform`, not a
// field error, so it is checked in the handler.
export const sessionBody = z.object({
  platform: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: `One of: ${PLATFORMS.join(", ")}.`, example: "twitter" }),
  callback_url: callbackUrl.meta({
    description:
      "Where the user's browser lands at the end: https (http only for localhost, 127.0.0.1 and [::1]), absolute, no user name or password, no fragment, none of the parameters the service adds.",
    example: "https://app.example.com/oauth/callback",
  }),
  state: z
    .string()
    .min(1)
    .refine((value) => length(value) <= STATE_MAX, {
      message: `The state field must not be greater than ${STATE_MAX} characters.`,
    })
    .refine((value) => value.isWellFormed(), { message: "The state field must be valid Unicode text." })
    // The state is signed into the proof, whose string joins values with & and =.
    .refine(isSignableValue, { message: "The state field must not contain & or =." })
    .meta({
      description: `1 to ${STATE_MAX} characters your application generated for this user's attempt; it comes back on callback_url, signed.`,
      example: "c1f0e6d2-5b7a-4f0e-9a61-2d3c4b5a6f70",
    }),
});

/** `{authorize_url, expires_in}`: what starts a browser flow, delegation or account connect alike. */
export const authorizeLinkSchema = (id: string) =>
  z
    .strictObject({
      authorize_url: z.url().meta({
        description: "Single-use link for the user's browser; it names nothing of the request.",
        example:
          "https://api.example.com/api/oauth/delegate/authorize/JOKxD9Gg_cz3r7xcenbjxAMLUCxj4Re63QXin0G_NlYw",
      }),
      expires_in: z.int().meta({ description: "Seconds the link stays usable.", example: 900 }),
    })
    .meta({ id });

export const sessionResponse = authorizeLinkSchema("DelegationSession");

export type SessionBody = z.infer<typeof sessionBody>;
