// A streaming multipart/form-data reader: parts come out one at a time with their body as a stream,
// so a file goes on to R2 while it arrives instead of being parsed into memory by formData(). At most
// one network chunk plus a boundary's length is held.
import { utf8 } from "./encoding";

export type FormPart = {
  name: string;
  filename: string | null;
  contentType: string | null;
  body: ReadableStream<Uint8Array>;
};

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PARTS = 32;
const CRLF = utf8("\r\n");
const HEADERS_END = utf8("\r\n\r\n");

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function formBoundary(contentType: string | undefined): string | null {
  const [type, ...params] = (contentType ?? "").split(";");
  if (type?.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const match = /^\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s";]{1,70}))\s*$/i.exec(param);
    if (match) return match[1] ?? match[2] ?? null;
  }
  return null;
}

class Scanner {
  buffer = new Uint8Array(0);
  ended = false;

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  async more(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.reader.read();
    if (next.done) {
      this.ended = true;
      return false;
    }
    const joined = new Uint8Array(this.buffer.byteLength + next.value.byteLength);
    joined.set(this.buffer);
    joined.set(next.value, this.buffer.byteLength);
    this.buffer = joined;
    return true;
  }

  find(needle: Uint8Array): number {
    const { buffer } = this;
    const first = needle[0]!;
    for (let at = buffer.indexOf(first); at !== -1; at = buffer.indexOf(first, at + 1)) {
      if (at + needle.length > buffer.length) return -1;
      let i = 1;
      while (i < needle.length && buffer[at + i] === needle[i]) i++;
      if (i === needle.length) return at;
    }
    return -1;
  }

  take(bytes: number): Uint8Array {
    const out = this.buffer.subarray(0, bytes);
    this.buffer = this.buffer.subarray(bytes);
    return out;
  }

  async ensure(bytes: number): Promise<boolean> {
    while (this.buffer.length < bytes) if (!(await this.more())) return false;
    return true;
  }

  cancel(reason?: unknown) {
    return this.reader.cancel(reason).catch(() => {});
  }
}

/**
 * Yields the parts of a multipart/form-data body in order. Read (or cancel) each part's body before
 * asking for the next one; an unread body is skipped.
 */
export async function* readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
): AsyncGenerator<FormPart, void, undefined> {
  const scanner = new Scanner(body.getReader());
  const delimiter = utf8(`\r\n--${boundary}`);
  // The first boundary has no CRLF before it; supply one so every delimiter looks the same.
  scanner.buffer = CRLF.slice();
  try {
    for (;;) {
      const at = scanner.find(delimiter);
      if (at !== -1) {
        scanner.take(at + delimiter.length);
        break;
      }
      scanner.take(Math.max(0, scanner.buffer.length - delimiter.length));
      if (!(await scanner.more())) throw new MultipartError("no boundary in the body");
    }
    for (let count = 0; ; count++) {
      if (!(await scanner.ensure(2))) throw new MultipartError("truncated body");
      if (scanner.buffer[0] === 0x2d && scanner.buffer[1] === 0x2d) return; // "--": the last boundary
      // Transport padding (spaces, tabs) may follow a boundary before its CRLF.
      while ((await scanner.ensure(1)) && (scanner.buffer[0] === 0x20 || scanner.buffer[0] === 0x09))
        scanner.take(1);
      if (!(await scanner.ensure(2)) || scanner.buffer[0] !== 0x0d || scanner.buffer[1] !== 0x0a) {
        throw new MultipartError("malformed boundary line");
      }
      scanner.take(2);
      if (count >= MAX_PARTS) throw new MultipartError("too many parts");

      let end = scanner.find(HEADERS_END);
      while (end === -1) {
        if (scanner.buffer.length > MAX_HEADER_BYTES) throw new MultipartError("part headers too large");
        if (!(await scanner.more())) throw new MultipartError("truncated part headers");
        end = scanner.find(HEADERS_END);
      }
      const headers = parseHeaders(new TextDecoder().decode(scanner.take(end)));
      scanner.take(HEADERS_END.length);

      let finished = false;
      // The next piece of this part's body, or null once its closing delimiter has been consumed.
      const nextChunk = async (): Promise<Uint8Array | null> => {
        for (;;) {
          const found = scanner.find(delimiter);
          if (found !== -1) {
            const last = scanner.take(found);
            scanner.take(delimiter.length);
            finished = true;
            return last.byteLength > 0 ? last : null;
          }
          const safe = scanner.buffer.length - (delimiter.length - 1);
          if (safe > 0) return scanner.take(safe);
          if (!(await scanner.more())) throw new MultipartError("truncated part body");
        }
      };
      const partBody = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const chunk = finished ? null : await nextChunk();
            if (chunk) controller.enqueue(chunk);
            if (finished) controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      yield { ...headers, body: partBody };
      // Whatever the reader left (or cancelled) is skipped here, straight from the scanner.
      while (!finished) await nextChunk();
    }
  } catch (error) {
    await scanner.cancel(error);
    throw error;
  }
}

function parseHeaders(block: string): Omit<FormPart, "body"> {
  let disposition = "";
  let contentType: string | null = null;
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    if (name === "content-type") contentType = value;
  }
  const [kind, ...rest] = disposition.split(";");
  if (kind?.trim().toLowerCase() !== "form-data") throw new MultipartError("a part is not form-data");
  const params = new Map<string, string>();
  for (const match of rest.join(";").matchAll(/\s*([\w*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
    params.set(match[1]!.toLowerCase(), (match[2] ?? match[3] ?? "").replace(/\\(.)/g, "$1").trim());
  }
  const name = params.get("name");
  if (name === undefined) throw new MultipartError("a part has no name");
  let filename = params.get("filename") ?? null;
  const extended = params.get("filename*");
  if (extended) {
    const encoded = /^utf-8''(.*)$/i.exec(extended)?.[1];
    try {
      if (encoded) filename = decodeURIComponent(encoded);
    } catch {}
  }
  return { name, filename, contentType };
}
