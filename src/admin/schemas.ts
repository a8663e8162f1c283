import { z } from "zod";
import { ABILITIES, PLATFORMS, SUBSCRIPTION_STATUSES } from "../db/enums";
import { bodyId, isoDateTime } from "../lib/schemas";

const name = () => z.string().trim().min(1).max(255);

export const createUserBody = z.object({
  name: name(),
  email: z
    .email()
    .max(255)
    .transform((email) => email.toLowerCase()),
});

/** Zones the runtime knows; an unknown zone would break every timestamp of the workspace. */
const timezone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: "The timezone must be a valid IANA time zone such as Europe/Paris." },
);

export const createWorkspaceBody = z.object({
  user_id: bodyId(),
  name: name(),
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, {
      message: "The slug may only contain lowercase letters, digits and dashes.",
    })
    .max(100)
    .optional(),
  type: z.enum(["PERSONAL", "ORGANIZATION"]).default("PERSONAL"),
  timezone: timezone.default("UTC"),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, {
      message: "The language must be a language code such as en or pt-BR.",
    })
    .default("en"),
  logo: z.url().max(2048).nullable().default(null),
});

export const addMemberBody = z.object({ user_id: bodyId() });

export const createAccountBody = z.object({
  workspace_id: bodyId(),
  platform: z.enum(PLATFORMS),
  username: name(),
  name: name(),
  avatar: z.url().max(2048).nullable().default(null),
  is_verified: z.boolean().default(false),
});

export const createApiKeyBody = z.object({
  user_id: bodyId(),
  name: name().default("API key"),
  abilities: z.array(z.enum(ABILITIES)).max(ABILITIES.length),
  // Past instants are accepted on purpose: operators and tests create already-expired keys.
  expires_at: isoDateTime().nullable().default(null),
});

export const subscriptionBody = z.object({ status: z.enum(SUBSCRIPTION_STATUSES) });
