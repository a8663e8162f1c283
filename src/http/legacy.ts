// TEMPORARY while routes move to apiRoute()/publicRoute(): the old validator entry points. Deleted
// before this change lands.
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import type { z } from "zod";
import { idParams } from "../lib/schemas";
import { validationHook } from "./router";

export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  // biome-ignore lint/suspicious/noExplicitAny: temporary shim
  return zValidator(target, schema, ((result: any) => validationHook(result)) as any);
}

export const idPath = () => validate("param", idParams);
