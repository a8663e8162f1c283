// The API's three forms of an account: short (inside a workspace), list, and analytics.
import { z } from "zod";
import { PLATFORMS } from "../db/enums";

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
