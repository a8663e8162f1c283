// The media library's request and response schemas: the import body, the upload form (its fields as
// the upload reads them, and the plain OpenAPI object the document shows), the list query, and the
// MediaItem every answer carries.
import { z } from "zod";
import { MEDIA_KINDS } from "../db/enums";
import { beforeIdQuery, bodyId, pageQuery, textId } from "../lib/schemas";
import { MAX_URL_LENGTH } from "../lib/url-guard";
import { MAX_URLS_PER_REQUEST } from "./config";
import { MEDIA_LINK_TTL_SECONDS } from "./links";

export const MAX_ALT = 1000;

export const importMediaBody = z.strictObject({
  workspace_id: bodyId(),
  urls: z
    .array(z.string().max(MAX_URL_LENGTH))
    .min(1)
    .max(MAX_URLS_PER_REQUEST)
    .meta({
      description: `1 to ${MAX_URLS_PER_REQUEST} http(s) URLs of at most ${MAX_URL_LENGTH} characters: direct image or video links, or pages whose Open Graph / Twitter Card tags name media.`,
      example: ["https://cdn.example.com/photos/sunset.jpg"],
    }),
  folder_id: bodyId().nullish().meta({ description: "A folder of the workspace to file the items in." }),
});

export const listMediaQuery = z.strictObject({
  workspace_id: textId().optional().meta({ description: "Only this workspace's items." }),
  folder_id: textId().optional().meta({ description: "Only this folder's items." }),
  ...pageQuery(),
  before_id: beforeIdQuery(),
});

/** The text fields of an upload, as the multipart reader collects them (strings, trimmed). */
export const uploadFields = z.strictObject({
  workspace_id: textId(),
  // An empty folder_id is what an HTML form sends for "none".
  folder_id: z.preprocess((v) => (v === "" ? undefined : v), textId().optional()),
  alt: z.string().max(MAX_ALT).optional(),
});

/**
 * The upload form for the document only: a plain OpenAPI schema, not zod, so no validator takes the
 * body and the upload keeps streaming the file itself.
 */
export const uploadFormSchema = {
  type: "object" as const,
  required: ["file", "workspace_id"],
  // A part the upload does not know is a 422 naming it (src/media/upload.ts), as in every JSON body.
  additionalProperties: false as const,
  properties: {
    file: {
      type: "string" as const,
      format: "binary",
      description: "One image or video; its first bytes decide its type, not its name or declared type.",
    },
    workspace_id: { type: "integer" as const, minimum: 1, example: 1 },
    folder_id: { type: "integer" as const, minimum: 1, description: "A folder of the workspace." },
    alt: { type: "string" as const, maxLength: MAX_ALT, description: "Alternative text, trimmed." },
  },
};

const linkHours = MEDIA_LINK_TTL_SECONDS / 3600;

export const mediaItemSchema = z
  .strictObject({
    id: z.int(),
    name: z.string().meta({ example: "sunset.jpg" }),
    url: z.string().meta({
      description: `A signed link to the bytes, valid for ${linkHours} to ${linkHours + 1} hours and needing no API key; list the media again for a fresh one.`,
      example: "https://api.example.com/media/1?expires=1795000000&sig=3f1c…",
    }),
    mime_type: z.string().meta({ example: "image/jpeg" }),
    size: z.int().meta({
      description:
        "Bytes. While an import is processing, the origin's Content-Length, or 0 when it sent none.",
    }),
    is_processing: z.boolean().meta({ description: "True until an import's bytes are stored." }),
    type: z.enum(MEDIA_KINDS),
    ai_generated_id: z.int().nullable(),
    is_reference: z.boolean(),
    progress: z.int().meta({
      description: "0 while processing, 100 once stored; an import that failed for good stays at 0.",
    }),
    alt: z.string().nullable(),
  })
  .meta({ id: "MediaItem" });

export type MediaItem = z.infer<typeof mediaItemSchema>;

export const importedMediaSchema = z
  .strictObject({
    media: z.array(mediaItemSchema),
    count_stored: z.int().meta({ description: "How many items were created (the length of `media`)." }),
  })
  .meta({ id: "MediaImport" });
