// Reading a request body with a cap: refused by its Content-Length before a byte is read, else counted
// while it streams and cut off at the cap, so no more than `max` bytes are ever held. The one reader
// of every capped body: the edge's body limit (src/http/body-limit.ts) and the sandbox's forms and
// JSON (src/sandbox/body.ts).

/** The body's declared length, or null when it declares none (chunked) or an unreadable one. */
export function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null || !/^\s*\d+\s*$/.test(header)) return null;
  return Number(header);
}

/**
 * The body's bytes; `too_large` when it declares or turns out to be longer than `max` (read no further
 * than the byte past it); null when it breaks off.
 */
export async function readCapped(request: Request, max: number): Promise<Uint8Array | "too_large" | null> {
  const declared = declaredLength(request);
  if (declared !== null && declared > max) return "too_large";
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        await reader.cancel().catch(() => {});
        return "too_large";
      }
      chunks.push(value);
    }
  } catch {
    return null;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
