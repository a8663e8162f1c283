// What the sandbox's publishing endpoints accept, checked the way a platform would check it: a bad
// request is a 400 with a message, never a crash.
import { z } from "zod";

const media = z.object({ url: z.string().min(1).max(4096), type: z.string().min(1).max(255) });
const item = z
  .object({ text: z.string().max(100_000), media: z.array(media).max(100).default([]) })
  .refine((value) => value.text.trim() !== "" || value.media.length > 0, "An item needs text or media.");
export const FINGERPRINT_MAX = 255;
const fingerprint = z.string().min(1).max(FINGERPRINT_MAX);

export const publishRequest = z.object({ items: z.array(item).min(1).max(100), fingerprint });
export const replyRequest = z.object({ text: z.string().min(1).max(100_000), fingerprint });

/** The parsed body, or the message of its first problem. */
export function readBody<T>(schema: z.ZodType<T>, body: unknown): T | string {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.length ? `${issue.path.join(".")}: ` : "";
  return `Invalid request: ${path}${issue?.message ?? "malformed body"}`;
}
