// GET /api/v1/me: who the key belongs to, what it may do, until when, and the rate window it spends.
import { z } from "zod";
import { ABILITIES, SUBSCRIPTION_STATUSES } from "../db/enums";

export const meSchema = z
  .strictObject({
    user: z.strictObject({ id: z.int(), name: z.string(), email: z.string() }),
    subscription: z.enum([...SUBSCRIPTION_STATUSES, "none"]).meta({
      description: "The user's subscription; analytics sync needs `active`, `trialing` or `grace_period`.",
    }),
    key: z.strictObject({
      id: z.int(),
      name: z.string(),
      prefix: z
        .string()
        .meta({ description: "The key's first characters, as the operator's key list shows them." }),
      abilities: z.array(z.enum(ABILITIES)),
      expires_at: z.string().nullable().meta({ description: "ISO 8601 (UTC), or null: it does not expire." }),
      created_at: z.string().meta({ description: "ISO 8601 (UTC)." }),
      has_signing_secret: z.boolean().meta({ description: "Whether it can create delegation sessions." }),
    }),
    rate_limit: z
      .strictObject({
        limit: z.int().meta({ example: 60 }),
        remaining: z.int().meta({ description: "Requests left in the window, this one counted." }),
        reset_at: z.string().meta({ description: "When the window closes (ISO 8601, UTC)." }),
      })
      .meta({ description: "The user's window, shared by all their keys and the MCP tools." }),
  })
  .meta({ id: "Me" });
