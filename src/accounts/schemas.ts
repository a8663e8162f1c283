// The API's three forms of an account: short (inside a workspace), list, and analytics.
import { z } from "zod";
import { PLATFORMS } from "../db/enums";
import { authorizeLinkSchema, bodyId, returnUrl } from "../lib/schemas";

export const accountShortSchema = z
  .strictObject({
    id: z.int(),
    platform: z.enum(PLATFORMS),
    username: z.string(),
    name: z.string(),
    avatar: z.string().nullable(),
  })
  .meta({ id: "AccountShort" });

export const accountSchema = accountShortSchema
  .extend({ workspace_id: z.int() })
  .meta({ id: "Account", description: "A connected social account." });

export const accountAnalyticsSchema = z
  .strictObject({
    id: z.int(),
    workspace_id: z.int(),
    platform: z.enum(PLATFORMS),
    username: z.string(),
    name: z.string(),
    avatar: z.string().nullable(),
    has_expired: z.boolean(),
    is_default: z.boolean(),
    support_threads: z.boolean(),
    is_verified: z.boolean(),
  })
  .meta({ id: "AccountAnalytics" });

/** Query parameters the service adds to redirect_url at the end of a connect, which it must not carry. */
export const CONNECT_PARAMS = [
  "status",
  "account_id",
  "platform",
  "error",
  "error_description",
  "state",
] as const;

export const connectBody = z.object({
  workspace_id: bodyId().meta({ description: "The workspace the account joins." }),
  platform: z.enum(PLATFORMS).meta({ description: `One of: ${PLATFORMS.join(", ")}.`, example: "twitter" }),
  redirect_url: returnUrl("redirect url", CONNECT_PARAMS).meta({
    description:
      "Where the user's browser lands at the end: https (http only for localhost, 127.0.0.1 and [::1]), absolute, no user name or password, no fragment, none of the parameters the service adds.",
    example: "https://app.example.com/accounts/connected",
  }),
});

export const connectResponse = authorizeLinkSchema("AccountConnect");
