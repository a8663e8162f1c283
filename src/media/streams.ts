// Stream helpers for moving bodies without holding them: the first bytes of a body, its promised length.
import { FetchFailure } from "../lib/fetch-failure";

/** The first bytes of a body, and the body itself, unlocked and positioned right after them. */
export type Head = {
  head: Uint8Array;
  /** The chunks read to get `head` (they may run past it), in order. */
  chunks: Uint8Array[];
  body: ReadableStream<Uint8Array>;
  /** True when the body ended within those chunks. */
  done: boolean;
};

/**
 * Reads chunks until at least `bytes` bytes (or the end) are in hand, then releases the reader, so
 * the rest of the body can still be piped natively (no JavaScript per chunk) or cancelled.
 */
export async function readHead(body: ReadableStream<Uint8Array>, bytes: number): Promise<Head> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  try {
    while (total < bytes) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        break;
      }
      chunks.push(next.value);
      total += next.value.byteLength;
    }
  } finally {
    reader.releaseLock();
  }
  const head = new Uint8Array(Math.min(total, bytes));
  let offset = 0;
  for (const chunk of chunks) {
    if (offset >= head.length) break;
    const part = chunk.subarray(0, head.length - offset);
    head.set(part, offset);
    offset += part.byteLength;
  }
  return { head, chunks, body, done };
}

export class TooLarge extends FetchFailure {
  readonly limit: number;

  constructor(limit: number) {
    super(`larger than ${limit} bytes`, true);
    this.name = "TooLarge";
    this.limit = limit;
  }
}

/** The body length a response promises, when it is a plain (not re-encoded) length. */
export function declaredLength(response: Response): number | null {
  const encoding = (response.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity" && encoding !== "") return null;
  const value = response.headers.get("content-length");
  if (value === null || !/^\d{1,15}$/.test(value.trim())) return null;
  return Number(value.trim());
}
