// Writes a body into R2 without holding it. R2's put() takes a stream only when its length is known:
//  - with a Content-Length, the head already read goes into a FixedLengthStream and the rest of the
//    body is piped into it natively, so after the first chunk no byte passes through JavaScript and
//    nothing is held; the FixedLengthStream also refuses a body longer or shorter than promised;
//  - without one, the bytes are cut into equal parts of a multipart upload: one part is held.
// Either way the bytes read before the body's type was known (its head) are written first.
import { FetchFailure } from "../lib/fetch-failure";
import { type Head, TooLarge } from "./streams";

/** R2 wants every part but the last of one size, at least 5 MiB. */
export const PART_SIZE = 5 * 1024 * 1024;

export async function putKnownLength(
  bucket: R2Bucket,
  key: string,
  start: Head,
  length: number,
  contentType: string,
): Promise<R2Object> {
  const fixed = new FixedLengthStream(length);
  // Started first: the FixedLengthStream holds nothing, so writes wait for put() to read.
  const put = bucket.put(key, fixed.readable, { httpMetadata: { contentType } });
  let sourceError: unknown;
  const pump = (async () => {
    const writer = fixed.writable.getWriter();
    let locked = true;
    try {
      for (const chunk of start.chunks) await writer.write(chunk);
      if (start.done) return await writer.close();
      writer.releaseLock();
      locked = false;
      await start.body.pipeTo(fixed.writable);
    } catch (error) {
      sourceError = error;
      // Whatever failed, put() must not wait for bytes that will never come.
      await (locked ? writer.abort(error) : fixed.writable.abort(error)).catch(() => {});
    }
  })();
  try {
    const object = await put;
    await pump;
    if (sourceError) throw sourceError;
    return object;
  } catch (error) {
    await pump;
    await start.body.cancel(error).catch(() => {});
    // A body that ends short of its Content-Length surfaces as the FixedLengthStream's error in put().
    const short = error instanceof TypeError && error.message.includes("FixedLengthStream");
    throw sourceError || short ? sourceFailure(sourceError ?? error) : error;
  }
}

/** A failure of the body being read (origin cut off, shorter than promised) is the origin's: retried. */
const sourceFailure = (error: unknown) =>
  error instanceof FetchFailure ? error : new FetchFailure(`download interrupted: ${String(error)}`, false);

/**
 * Without a length: the bytes are cut into equal parts of a multipart upload (a single put when they
 * fit in one part), with one part-sized buffer held. A byte stream is read straight into that buffer
 * (BYOB), so no chunk is allocated per read; any other stream is copied into it. More than `cap`
 * bytes aborts the upload mid-stream with TooLarge.
 */
export async function putInParts(
  bucket: R2Bucket,
  key: string,
  start: Head,
  cap: number,
  contentType: string,
): Promise<R2Object> {
  const httpMetadata = { contentType };
  let buffer = new ArrayBuffer(PART_SIZE);
  let filled = 0;
  let total = 0;
  // Held in an object: set inside flush(), which TypeScript's narrowing does not follow.
  const multipart: { upload: R2MultipartUpload | null } = { upload: null };
  const parts: R2UploadedPart[] = [];
  let reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array> | null = null;

  const count = (bytes: number) => {
    total += bytes;
    if (total > cap) throw new TooLarge(cap);
  };
  const flush = async () => {
    multipart.upload ??= await bucket.createMultipartUpload(key, { httpMetadata });
    parts.push(await multipart.upload.uploadPart(parts.length + 1, new Uint8Array(buffer, 0, filled)));
    filled = 0;
  };
  const append = async (chunk: Uint8Array) => {
    count(chunk.byteLength);
    let rest = chunk;
    while (rest.byteLength > 0) {
      const take = Math.min(rest.byteLength, PART_SIZE - filled);
      new Uint8Array(buffer, filled, take).set(rest.subarray(0, take));
      filled += take;
      rest = rest.subarray(take);
      if (filled === PART_SIZE) await flush();
    }
  };
  const read = <T>(reading: Promise<T>) =>
    reading.catch((error: unknown) => {
      throw sourceFailure(error);
    });

  try {
    for (const chunk of start.chunks) await append(chunk);
    if (!start.done) {
      const byob = byobReader(start.body);
      if (byob) {
        reader = byob;
        for (;;) {
          const { value, done } = await read(byob.read(new Uint8Array(buffer, filled, PART_SIZE - filled)));
          if (value) buffer = value.buffer as ArrayBuffer; // a BYOB read hands the buffer back transferred
          if (done || !value) break;
          count(value.byteLength);
          filled += value.byteLength;
          if (filled === PART_SIZE) await flush();
        }
      } else {
        const plain = start.body.getReader();
        reader = plain;
        for (;;) {
          const next = await read(plain.read());
          if (next.done) break;
          await append(next.value);
        }
      }
    }
    if (!multipart.upload) return await bucket.put(key, new Uint8Array(buffer, 0, filled), { httpMetadata });
    if (filled > 0) await flush();
    return await multipart.upload.complete(parts);
  } catch (error) {
    await (reader ? reader.cancel(error) : start.body.cancel(error)).catch(() => {});
    await multipart.upload?.abort().catch(() => {});
    throw error;
  }
}

function byobReader(body: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return body.getReader({ mode: "byob" });
  } catch {
    return null; // not a byte stream
  }
}
