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

export const accountHealthSchema = z
  .strictObject({
    status: z.enum(["ok", "reauth_required"]).meta({
      description:
        "`reauth_required` once the platform refused the grant for good (the user removed the app, a refresh was refused, the token expired unrefreshed): only a reconnect (POST /api/v1/accounts/{id}/reconnect) brings it back.",
    }),
    token_expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "When the stored access token expires (null: it does not, or unknown)." }),
    last_refreshed_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "The last successful token refresh (null: none since it was connected)." }),
    last_error: z.strictObject({ code: z.string(), message: z.string() }).nullable().meta({
      description:
        "The last refresh failure, cleared by a successful refresh or a reconnect. With status `ok` it was transient (retried).",
    }),
  })
  .meta({ id: "AccountHealth" });

export const accountSchema = accountShortSchema
  .extend({
    workspace_id: z.int(),
    has_expired: z.boolean().meta({ description: "True while health.status is `reauth_required`." }),
    health: accountHealthSchema,
  })
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

export const connectBody = z.strictObject({
  workspace_id: bodyId().meta({ description: "The workspace the account joins." }),
  platform: z.enum(PLATFORMS).meta({ description: `One of: ${PLATFORMS.join(", ")}.`, example: "twitter" }),
  redirect_url: returnUrl("redirect url", CONNECT_PARAMS).meta({
    description:
      "Where the user's browser lands at the end: https (http only for localhost, 127.0.0.1 and [::1]), absolute, no user name or password, no fragment, none of the parameters the service adds.",
    example: "https://app.example.com/accounts/connected",
  }),
});

export const connectResponse = authorizeLinkSchema("AccountConnect");

export const reconnectBody = z.strictObject({
  redirect_url: connectBody.shape.redirect_url,
});

export const reconnectResponse = authorizeLinkSchema("AccountReconnect");
