// The operator API's request bodies and answers. Workspaces and accounts answer in the shapes the
// /api/v1 routes use (workspaceSchema, accountSchema).
import { z } from "zod";
import { ABILITIES, DEFAULTS, MODES, PLATFORMS, SUBSCRIPTION_STATUSES, WORKSPACE_TYPES } from "../db/enums";
import { MAX_SHARDS } from "../db/shards";
import { bodyId, isoDateTime, timezone } from "../lib/schemas";

/** An image URL shown to people: http or https only (never `javascript:` or `data:`). */
const webUrl = () =>
  z.url({ protocol: /^https?$/, error: "The :attribute field must be an http or https URL." }).max(2048);

const name = () => z.string().trim().min(1).max(255);

export const createUserBody = z.strictObject({
  name: name().meta({ example: "Ada Lovelace" }),
  email: z
    .email()
    .max(255)
    .transform((email) => email.toLowerCase())
    .meta({ example: "ada@example.com" }),
  shard: z
    .int({ error: "The shard field must be an integer." })
    .min(0, { error: "The shard field must be an integer." })
    .max(MAX_SHARDS - 1, { error: "The selected shard is not bound." })
    .optional()
    .meta({
      description:
        "The database the user and everything in their workspaces live in: 0 is `DB`, k is `DB_SHARD_<k>`. Default: the `NEW_USER_SHARD` setting (0 unless set). Users who share workspaces must share a shard.",
      example: 0,
    }),
  subscription: z.enum(SUBSCRIPTION_STATUSES).default("active").meta({
    description:
      "The user's subscription from the start (`PUT /admin/v1/users/{id}/subscription` changes it). Default `active`: analytics sync skips users whose subscription is not `active`, `trialing` or `grace_period`.",
  }),
});

export const findUserQuery = z.strictObject({
  email: z
    .email()
    .transform((email) => email.toLowerCase())
    .meta({ example: "ada@example.com" }),
});

export const createWorkspaceBody = z.strictObject({
  user_id: bodyId(),
  name: name().meta({ example: "Acme" }),
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
      message: "The slug may only contain lowercase letters, digits and dashes.",
    })
    .max(100)
    .optional()
    .meta({ description: "Derived from the name (and made unique) when absent." }),
  type: z.enum(WORKSPACE_TYPES).default(DEFAULTS.workspaceType),
  timezone: timezone.default(DEFAULTS.timezone),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
      message: "The language must be a language code such as en or pt-BR.",
    })
    .default(DEFAULTS.language),
  logo: webUrl().nullable().default(null),
  mode: z.enum(MODES).default("live").meta({
    description:
      "Fixed for life: a `test` workspace is seen only by test keys and publishes to the emulators.",
  }),
});

export const addMemberBody = z.strictObject({ user_id: bodyId() });

export const createAccountBody = z.strictObject({
  workspace_id: bodyId(),
  platform: z.enum(PLATFORMS),
  username: name(),
  name: name(),
  avatar: webUrl().nullable().default(null),
  is_verified: z.boolean().default(false),
});

/**
 * An origin a key's delegation callbacks may use: `https://host[:port]`, or `http://` on loopback. The
 * service redirects browsers to these, so it only ever redirects where the operator allowed.
 */
const callbackOrigin = z.string().refine(
  (value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    return (url.protocol === "https:" || (url.protocol === "http:" && loopback)) && url.origin === value;
  },
  {
    error: "Each callback origin must be an origin such as https://app.example.com (http only on localhost).",
  },
);

export const callbackOrigins = z.array(callbackOrigin).max(20);
export const callbackOriginsBody = z.strictObject({ callback_origins: callbackOrigins });

export const createApiKeyBody = z.strictObject({
  user_id: bodyId(),
  callback_origins: callbackOrigins.default([]).meta({
    description: "Origins the key's delegation callback_url may use; empty: any https URL.",
  }),
  name: name().default(DEFAULTS.apiKeyName),
  abilities: z.array(z.enum(ABILITIES)).max(ABILITIES.length),
  // Past instants are accepted on purpose: operators and tests create already-expired keys.
  expires_at: isoDateTime().nullable().default(null),
  mode: z.enum(MODES).default("live").meta({
    description:
      "`test` keys (`spk_test_…`) see only test workspaces, whose accounts are the platforms' emulators.",
  }),
});

export const updateApiKeyBody = z
  .strictObject({
    abilities: z.array(z.enum(ABILITIES)).max(ABILITIES.length).optional(),
    expires_at: isoDateTime().nullable().optional(),
  })
  .refine((body) => body.abilities !== undefined || body.expires_at !== undefined, {
    message: "Send abilities, expires_at, or both.",
    path: ["abilities"],
  });

export const subscriptionBody = z.strictObject({ status: z.enum(SUBSCRIPTION_STATUSES) });

export type NewUser = z.output<typeof createUserBody>;
export type NewWorkspace = z.output<typeof createWorkspaceBody>;
export type NewAccount = z.output<typeof createAccountBody>;
export type NewApiKey = z.output<typeof createApiKeyBody>;

export const userSchema = z
  .strictObject({ id: z.int(), name: z.string(), email: z.string() })
  .meta({ id: "User" });

export const createdUserSchema = userSchema
  .extend({ subscription: z.enum(SUBSCRIPTION_STATUSES) })
  .meta({ id: "CreatedUser" });

export const membershipSchema = z
  .strictObject({ workspace_id: z.int(), user_id: z.int() })
  .meta({ id: "Membership" });

export const subscriptionSchema = z
  .strictObject({ user_id: z.int(), status: z.enum(SUBSCRIPTION_STATUSES) })
  .meta({ id: "Subscription" });

export const issuedKeySchema = z
  .strictObject({
    id: z.int(),
    key: z.string().meta({ description: "The key itself: shown this once, stored only as a hash." }),
  })
  .meta({ id: "IssuedApiKey" });

export const signingSecretSchema = z
  .strictObject({
    signing_secret: z
      .string()
      .meta({ description: "Signs delegation proofs. Shown this once, stored encrypted." }),
  })
  .meta({ id: "SigningSecret" });

const utcTime = () => z.iso.datetime().meta({ example: "2026-11-21T08:15:00.000Z" });

export const apiKeySchema = z
  .strictObject({
    id: z.int(),
    name: z.string(),
    prefix: z.string().meta({ description: "The key's first characters, to recognise it; never the key." }),
    abilities: z.array(z.enum(ABILITIES)),
    expires_at: utcTime().nullable(),
    last_used_at: utcTime()
      .nullable()
      .meta({ description: "The key's last authenticated request; null if it was never used." }),
    created_at: utcTime(),
    callback_origins: callbackOrigins,
    mode: z.enum(MODES).meta({ description: "`live`, or `test` (`spk_test_…`): the data the key sees." }),
  })
  .meta({ id: "ApiKey" });
