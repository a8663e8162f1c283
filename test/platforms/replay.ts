// Replaying recorded platform answers to a real adapter: a fetch that answers in order and records every
// request, so tests assert exactly what was sent, with no network.
import type { Platform } from "../../src/db/enums";
import { createAdapter } from "../../src/platforms/adapter";
import { SPECS } from "../../src/platforms/catalog";
import type { Fetch } from "../../src/platforms/types";
import { patternBytes } from "../support/bytes";

export const CREDENTIALS = { clientId: "client-123", clientSecret: "secret-456" };

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A fetch that replays answers in order and records every request. */
export function replay(...answers: Array<Response | Error>) {
  const requests: Request[] = [];
  const fetch: Fetch = async (input, init) => {
    requests.push(new Request(input, init));
    const next = answers.shift();
    if (!next) throw new Error("unexpected request");
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, requests };
}

/** The platform's real adapter, talking to `fetch`. */
export const adapterFor = (platform: Platform, fetch: Fetch) =>
  createAdapter(SPECS[platform], { credentials: CREDENTIALS, fetch });

/**
 * A media item whose bytes are `bytes` (a pattern repeated to `size` when given), opened whole or by
 * range as the publishing code would from R2; `opened` records each range asked for.
 */
export function mediaOf(
  fields: { url?: string; mime: string; kind: "image" | "video"; name?: string; size?: number },
  fill = 7,
) {
  const size = fields.size ?? 1024;
  const bytes = patternBytes(size, { step: 31, offset: fill, modulus: 251 });
  const opened: Array<{ offset: number; length: number }> = [];
  return {
    media: {
      url: fields.url ?? `https://api.example.test/media/${fill}?expires=1&sig=abc`,
      mime: fields.mime,
      kind: fields.kind,
      size,
      name: fields.name ?? `file-${fill}`,
      async open(range?: { offset: number; length: number }) {
        const { offset, length } = range ?? { offset: 0, length: size };
        opened.push({ offset, length });
        return new Blob([bytes.slice(offset, offset + length)]).stream();
      },
    },
    bytes,
    opened,
  };
}
