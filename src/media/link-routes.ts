// GET /media/{id}?expires=&sig=: the signed, expiring links of media items. Public (the signature is
// the credential): no API key, no rate limit. Serves the bytes from R2 with Content-Type,
// Content-Length, ETag, single-range requests (206 / 416) and private caching until the link expires.
// A tampered or expired link is 403; an item still processing is 409; a failed or absent one is 404.
import { eq } from "drizzle-orm";
import { media } from "../db/schema";
import type { DbEnv } from "../http/env";
import { conflict, forbiddenLink, notFound } from "../http/errors";
import { createRouter } from "../http/router";
import { verifyMediaLink } from "./links";
import { parseRange } from "./range";

const SECURITY_HEADERS = {
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Accept-Ranges": "bytes",
};

const contentDisposition = (name: string) =>
  `inline; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export const mediaLinksRouter = createRouter<DbEnv>().get("/:id", async (c) => {
  const id = c.req.param("id");
  const expires = c.req.query("expires") ?? "";
  const sig = c.req.query("sig") ?? "";
  if (!/^[1-9][0-9]{0,15}$/.test(id)) throw notFound("Media");
  if (!/^[0-9]{1,12}$/.test(expires) || !sig) throw forbiddenLink("Invalid signature.");
  const verdict = await verifyMediaLink(c.env, Number(id), Number(expires), sig);
  if (verdict === "invalid") throw forbiddenLink("Invalid signature.");
  if (verdict === "expired") throw forbiddenLink("This link has expired.");

  const row = await c.var.db
    .select({
      state: media.state,
      r2Key: media.r2Key,
      mimeType: media.mimeType,
      name: media.name,
      size: media.size,
      etag: media.etag,
    })
    .from(media)
    .where(eq(media.id, Number(id)))
    .get();
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
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${row.size}`);
    return c.json({ message: "The requested range is not satisfiable." }, 416, Object.fromEntries(headers));
  }
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
