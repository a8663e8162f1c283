// The body and the answer of POST /api/oauth/delegate/sessions.
import { z } from "zod";
import { PLATFORMS } from "../db/enums";
import { authorizeLinkSchema, returnUrl } from "../lib/schemas";
import { isSignableValue } from "../verify-proof";

export const STATE_MAX = 512;

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

const length = (value: string) => [...value].length;

const callbackUrl = returnUrl("callback url", PROOF_PARAMS);

// The platform is any short string here: an unknown one is the coded `unsupported_platform`, not a
// field error, so it is checked in the handler.
export const sessionBody = z.strictObject({
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
export const sessionResponse = authorizeLinkSchema("DelegationSession");

export type SessionBody = z.infer<typeof sessionBody>;
