// GET /media/{id}?expires=&sig=: the signed, expiring links of media items. Public (the signature is
// the credential): no API key, no rate limit. Serves the bytes from R2 with Content-Type,
// Content-Length, ETag, single-range requests (206 / 416) and private caching until the link expires.
// A tampered or expired link is 403; an item still processing is 409; a failed or absent one is 404.
import type { DbEnv } from "../http/env";
import { conflict, forbiddenLink, notFound, rangeNotSatisfiable } from "../http/errors";
import { publicRoute } from "../http/route";
import { createRouter } from "../http/router";
import { textId } from "../lib/schemas";
import { MEDIA_LINK_TTL_SECONDS, verifyMediaLink } from "./links";
import { mediaToServe } from "./queries";
import { parseRange } from "./range";

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Accept-Ranges": "bytes",
};

/** A malformed id names no item: 404, as an absent one (checked by hand, so it is not a 422). */
const mediaId = textId();
/** Unix seconds as the link carries them; anything else cannot have been signed. */
const EXPIRES = /^[0-9]{1,12}$/;

const contentDisposition = (name: string) =>
  `inline; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

const header = (description: string) => ({ description, schema: { type: "string" as const } });
const CACHING = {
  "Cache-Control": header("`private, max-age=<seconds until the link expires>`."),
  ETag: header("The stored object's entity tag."),
};
const BYTES = {
  ...CACHING,
  "Content-Type": header("The item's `mime_type`."),
  "Content-Length": { description: "Bytes in this answer.", schema: { type: "integer" as const } },
  "Content-Disposition": header("`inline`, with the item's name."),
  "Accept-Ranges": header("`bytes`."),
};
const binary = { schema: { type: "string" as const, format: "binary" } };
const BODY = { "image/*": binary, "video/*": binary };

const route = publicRoute({
  method: "get",
  operationId: "getMediaFile",
  path: "/{id}",
  tags: ["Media"],
  // No credential: the signature in the query is one.
  security: [],
  summary: "Download a media item (signed link)",
  description: `The \`url\` of a media item. Needs no API key (the signature is the credential) and is not rate limited. A link is valid for ${MEDIA_LINK_TTL_SECONDS / 3600} to ${MEDIA_LINK_TTL_SECONDS / 3600 + 1} hours; 403 once it has expired or when any part of it was changed. An item still processing answers 409 with \`Retry-After\`; a failed, deleted or unknown one 404. One byte range may be asked for (206, or 416 with \`Content-Range: bytes */<size>\` past the end); HEAD answers the headers only.`,
  // Plain parameters, not zod: a validator would answer 422 where a link must answer 403 or 404.
  parameters: [
    { name: "id", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
    {
      name: "expires",
      in: "query",
      required: true,
      description: "Unix time the link expires, as signed.",
      schema: { type: "integer" },
    },
    {
      name: "sig",
      in: "query",
      required: true,
      description: "Hex HMAC-SHA256 of the id and `expires`.",
      schema: { type: "string" },
    },
    {
      name: "Range",
      in: "header",
      description:
        "One range of bytes (`bytes=0-1023`, `bytes=1024-`, `bytes=-500`); several ranges, other units and malformed values are ignored.",
      schema: { type: "string" },
    },
    {
      name: "If-None-Match",
      in: "header",
      description: "An ETag seen before: 304 when it still matches.",
      schema: { type: "string" },
    },
  ],
  responses: {
    200: { description: "The whole item.", headers: BYTES, content: BODY },
    206: {
      description: "The range asked for.",
      headers: { ...BYTES, "Content-Range": header("`bytes <first>-<last>/<size>`.") },
      content: BODY,
    },
    304: { description: "The ETag in If-None-Match still matches.", headers: CACHING },
  },
  errors: [403, 404, 409, 416],
  audience: "link",
});

export const mediaLinksRouter = createRouter<DbEnv>().openapi(route, async (c) => {
  const id = mediaId.safeParse(c.req.param("id"));
  if (!id.success) throw notFound("Media");
  const expires = c.req.query("expires") ?? "";
  const sig = c.req.query("sig") ?? "";
  if (!EXPIRES.test(expires) || !sig) throw forbiddenLink("Invalid signature.");
  const verdict = await verifyMediaLink(c.env, id.data, Number(expires), sig);
  if (verdict === "invalid") throw forbiddenLink("Invalid signature.");
  if (verdict === "expired") throw forbiddenLink("This link has expired.");

  const row = await mediaToServe(c.var.shards.of(id.data), id.data);
  if (!row || row.state === "failed") throw notFound("Media");
  if (row.state === "processing") {
    throw conflict("The media item is still processing.", { "Retry-After": "5" });
  }

  const maxAge = Math.max(0, Number(expires) - Math.floor(Date.now() / 1000));
  const headers = new Headers({ ...SECURITY_HEADERS, "Cache-Control": `private, max-age=${maxAge}` });
  const ifNoneMatch = c.req.header("if-none-match");
  if (row.etag && ifNoneMatch?.split(",").some((tag) => [row.etag, "*"].includes(tag.trim()))) {
    headers.set("ETag", row.etag);
    return new Response(null, { status: 304, headers });
  }
  // The size recorded when the bytes were stored decides the range; one R2 read serves it.
  const range = parseRange(c.req.header("range"), row.size);
  if (range === "unsatisfiable") throw rangeNotSatisfiable(row.size, Object.fromEntries(headers));
  // HEAD reads the object's metadata only, so no body stream is opened and thrown away.
  let object: R2Object | null;
  let body: ReadableStream | null = null;
  if (c.req.method === "HEAD") {
    object = await c.env.MEDIA.head(row.r2Key);
  } else {
    const read = await c.env.MEDIA.get(row.r2Key, range ? { range } : {});
    object = read;
    body = read?.body ?? null;
  }
  if (!object) throw notFound("Media");
  headers.set("Content-Type", row.mimeType);
  headers.set("ETag", object.httpEtag);
  headers.set("Content-Disposition", contentDisposition(row.name));
  if (range) {
    headers.set("Content-Range", `bytes ${range.offset}-${range.offset + range.length - 1}/${object.size}`);
    headers.set("Content-Length", String(range.length));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(object.size));
  return new Response(body, { status: 200, headers });
});
