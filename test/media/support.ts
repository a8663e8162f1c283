// Fake origins for media import: the worker shares this isolate, so replacing globalThis.fetch makes
// every outbound call land here. Unknown URLs answer 404; nothing ever reaches the network.
import { env, exports } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { call } from "../support/client";
import { waitFor } from "../support/wait";

export type OriginHandler = (request: Request) => Response | Promise<Response>;

/** A resolver that says every name is a public address (tests of everything but DNS itself). */
export const publicDns = async (_host: string) => ["93.184.215.14"];

/** The DoH endpoint the importer asks (IMPORT_DNS_RESOLVER, a loopback address in vitest.config.ts). */
const DOH = env.IMPORT_DNS_RESOLVER;

export class Origins {
  readonly handlers = new Map<string, OriginHandler>();
  readonly requested: string[] = [];
  /** DNS answers by host name; a name not listed resolves to a public address. */
  readonly dns = new Map<string, string[]>();

  /** Makes `host` resolve to `addresses` (A and AAAA alike) for the importer's DNS-over-HTTPS lookups. */
  resolve(host: string, addresses: string[]): this {
    this.dns.set(host, addresses);
    return this;
  }

  #dohAnswer(url: URL): Response {
    const name = url.searchParams.get("name") ?? "";
    const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
    const wanted = (this.dns.get(name) ?? ["93.184.215.14"]).filter((a) => a.includes(":") === (type === 28));
    const Answer = wanted.map((data) => ({ name, type, TTL: 60, data }));
    return Response.json({ Status: 0, Answer }, { headers: { "content-type": "application/dns-json" } });
  }

  /** Answers `url` (exact, as the fetcher normalises it) with a fresh response per call. */
  on(url: string, handler: OriginHandler): this {
    this.handlers.set(new URL(url).href, handler);
    return this;
  }

  install() {
    return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init as RequestInit);
      if (request.url.startsWith(`${DOH}?`)) return this.#dohAnswer(new URL(request.url));
      this.requested.push(request.url);
      const handler = this.handlers.get(request.url);
      return handler ? handler(request) : new Response("no such origin", { status: 404 });
    });
  }

  /** How many times a URL was fetched. */
  hits(url: string): number {
    const href = new URL(url).href;
    return this.requested.filter((u) => u === href).length;
  }
}

let hostCounter = 0;
/** A fresh public-looking host per call, under the reserved .test TLD. */
export const freshHost = (label = "cdn") =>
  `https://${label}-${Date.now().toString(36)}-${hostCounter++}.example.test`;

const filled = (signature: number[], size: number, seed = 7) => {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) & 0xff;
  bytes.set(signature.slice(0, size));
  return bytes;
};

const asciiBytes = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

export const pngBytes = (size = 2048) => filled([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], size, 1);
export const jpegBytes = (size = 2048) => filled([0xff, 0xd8, 0xff, 0xe0], size, 2);
export const mp4Bytes = (size = 4096) => filled([0, 0, 0, 0x18, ...asciiBytes("ftypisom")], size, 3);
export const webmBytes = (size = 4096) =>
  filled(
    [0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...asciiBytes("webm")],
    size,
    4,
  );

/** A body response with Content-Length, as an origin serving a file sends it. */
export const bytesResponse = (bytes: Uint8Array, contentType: string | null, status = 200) =>
  new Response(bytes, {
    status,
    headers: {
      "content-length": String(bytes.byteLength),
      ...(contentType ? { "content-type": contentType } : {}),
    },
  });

export const htmlResponse = (html: string) =>
  new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });

export const redirect = (location: string, status = 302) =>
  new Response(null, { status, headers: { location } });

export const pageWithMeta = (metas: Array<[key: string, content: string]>, attribute = "property") =>
  `<!doctype html><html><head><title>A post</title>${metas
    .map(([key, content]) => `<meta ${attribute}="${key}" content="${content}">`)
    .join("")}</head><body><p>Hello</p></body></html>`;

/**
 * A body produced on demand in chunks, with no Content-Length; `pulled()` tells how many bytes the
 * reader actually took, to show a download was cut off mid-stream.
 */
export function endlessBody(total: number, head: Uint8Array, chunk = 64 * 1024) {
  let produced = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced >= total) return controller.close();
      const size = Math.min(chunk, total - produced);
      const bytes = new Uint8Array(size);
      if (produced === 0) bytes.set(head.subarray(0, size));
      produced += size;
      controller.enqueue(bytes);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, pulled: () => produced, cancelled: () => cancelled };
}

export type MediaRow = {
  id: number;
  workspace_id: number;
  folder_id: number | null;
  name: string;
  r2_key: string;
  mime_type: string;
  type: string;
  size: number;
  state: "processing" | "ready" | "failed";
  progress: number;
  source_url: string | null;
  error: string | null;
  etag: string | null;
};

export const mediaRow = (id: number) =>
  env.DB.prepare("SELECT * FROM media WHERE id = ?").bind(id).first<MediaRow>();

/** Waits (bounded) until the real local queue has settled every item: none still processing. */
export async function settled(ids: number[], timeout = 15_000): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return waitFor(
    async () => {
      const rows = await Promise.all(ids.map(mediaRow));
      return rows.every((row) => row && row.state !== "processing") ? (rows as MediaRow[]) : false;
    },
    { timeout, interval: 100, what: `media ${ids.join(", ")} settled` },
  );
}

/** A processing row inserted straight into D1, so no queue message exists for it. */
export async function insertProcessing(
  workspaceId: number,
  sourceUrl: string,
  fields: Partial<MediaRow> = {},
) {
  const row = await env.DB.prepare(
    `INSERT INTO media (workspace_id, name, r2_key, mime_type, type, size, state, progress, source_url)
     VALUES (?, ?, ?, ?, ?, 0, 'processing', 0, ?) RETURNING *`,
  )
    .bind(
      workspaceId,
      fields.name ?? "clip.mp4",
      fields.r2_key ?? `media/${crypto.randomUUID()}`,
      fields.mime_type ?? "video/mp4",
      fields.type ?? "video",
      sourceUrl,
    )
    .first<MediaRow>();
  return row!;
}

export async function importUrls(key: string, body: Record<string, unknown>) {
  return call("POST", "/api/v1/media/upload/url", { key, body });
}

export type Field = [name: string, value: string | File];

/** A multipart/form-data body with the fields in the order given. */
export const form = (fields: Field[]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

export const file = (bytes: Uint8Array, name: string, type = "application/octet-stream") =>
  new File([bytes], name, { type });

export const upload = (key: string, fields: Field[]) =>
  call("POST", "/api/v1/media/upload", { key, rawBody: form(fields) });

/** GET on a signed link through the worker's fetch, as a browser would: no API key. */
export const fetchLink = (url: string, headers: Record<string, string> = {}) =>
  exports.default.fetch(url, { headers });

export const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

export function expectMediaItem(item: Record<string, unknown>) {
  expect(Object.keys(item).sort()).toEqual(
    [
      "ai_generated_id",
      "alt",
      "id",
      "is_processing",
      "is_reference",
      "mime_type",
      "name",
      "progress",
      "size",
      "type",
      "url",
    ].sort(),
  );
}
