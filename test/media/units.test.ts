// Pure rules of the media library: magic bytes, names, ranges, the multipart reader, page meta tags.
import { describe, expect, it } from "vitest";
import { formBoundary, readMultipart } from "../../src/lib/multipart";
import { decodeEntities, pageMedia } from "../../src/media/import/resolve";
import { mediaName } from "../../src/media/names";
import { parseRange } from "../../src/media/range";
import { declaredType, looksLikeMarkup, sniffMedia } from "../../src/media/sniff";
import { readHead } from "../../src/media/streams";
import { jpegBytes, mp4Bytes, pngBytes, webmBytes } from "./support";

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe("sniffMedia", () => {
  it.each([
    ["JPEG", jpegBytes(64), "image/jpeg"],
    ["PNG", pngBytes(64), "image/png"],
    ["GIF", bytes("GIF89a", [1, 0, 1, 0]), "image/gif"],
    ["WebP", bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "), "image/webp"],
    ["AVIF", bytes([0, 0, 0, 0x1c], "ftypavif"), "image/avif"],
    ["HEIC", bytes([0, 0, 0, 0x18], "ftypheic"), "image/heic"],
    ["MP4", mp4Bytes(64), "video/mp4"],
    ["QuickTime", bytes([0, 0, 0, 0x14], "ftypqt  "), "video/quicktime"],
    ["3GP", bytes([0, 0, 0, 0x14], "ftyp3gp4"), "video/3gpp"],
    ["WebM", webmBytes(64), "video/webm"],
    ["Matroska", bytes([0x1a, 0x45, 0xdf, 0xa3], "matroska"), "video/x-matroska"],
    ["AVI", bytes("RIFF", [0, 0, 0, 0], "AVI LIST"), "video/x-msvideo"],
  ])("recognises %s", (_, head, mime) => {
    expect(sniffMedia(head)?.mime).toBe(mime);
  });

  it.each([
    ["HTML", bytes("<!doctype html><html>")],
    ["SVG", bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ["M4A audio", bytes([0, 0, 0, 0x20], "ftypM4A ")],
    ["WAV", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt ")],
    ["PDF", bytes("%PDF-1.7")],
    ["empty", new Uint8Array(0)],
    ["a truncated PNG signature", pngBytes(64).subarray(0, 5)],
  ])("refuses %s", (_, head) => {
    expect(sniffMedia(head)).toBeNull();
  });

  it("spots markup after a BOM and whitespace", () => {
    expect(looksLikeMarkup(bytes([0xef, 0xbb, 0xbf], " \n\t<html>"))).toBe(true);
    expect(looksLikeMarkup(pngBytes(16))).toBe(false);
  });

  it("reads what a Content-Type claims", () => {
    expect(declaredType("image/png")).toBe("image");
    expect(declaredType("VIDEO/MP4; codecs=avc1")).toBe("video");
    expect(declaredType("text/html; charset=utf-8")).toBe("page");
    expect(declaredType(null)).toBe("binary");
    expect(declaredType("binary/octet-stream")).toBe("binary");
    expect(declaredType("application/json")).toBe("other");
  });
});

describe("mediaName", () => {
  const png = sniffMedia(pngBytes(16))!;
  it.each([
    ["photo.png", "photo.png"],
    ["my%20photo.PNG", "my photo.PNG"],
    ["download", "download.png"],
    [null, "image.png"],
    ["..", "image.png"],
    ['a"b<c>\\d\u0000.png', "abcd.png"],
    ["%E0%A4%A", "%E0%A4%A.png"],
    [`${"x".repeat(300)}.png`, `${"x".repeat(196)}.png`],
  ])("%s → %s", (input, expected) => {
    expect(mediaName(input, png)).toBe(expected);
  });
});

describe("parseRange", () => {
  it.each([
    ["bytes=0-9", 100, { offset: 0, length: 10 }],
    ["bytes=90-", 100, { offset: 90, length: 10 }],
    ["bytes=-10", 100, { offset: 90, length: 10 }],
    ["bytes=-500", 100, { offset: 0, length: 100 }],
    ["bytes=50-5000", 100, { offset: 50, length: 50 }],
    ["bytes=100-", 100, "unsatisfiable"],
    ["bytes=-0", 100, "unsatisfiable"],
    ["bytes=0-", 0, "unsatisfiable"],
    ["bytes=5-1", 100, null],
    ["bytes=0-1,3-4", 100, null],
    ["pages=1-2", 100, null],
    [null, 100, null],
  ] as const)("%s of %d → %o", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe("readMultipart", () => {
  const boundary = "----form-7MA4YWxkTrZu0gW";
  const body = [
    `preamble to ignore\r\n--${boundary}\r\n`,
    'Content-Disposition: form-data; name="workspace_id"\r\n\r\n42\r\n',
    `--${boundary}  \r\n`,
    'Content-Disposition: form-data; name="file"; filename="a \\"b\\".png"; filename*=UTF-8\'\'%C3%A9t%C3%A9.png\r\n',
    "Content-Type: image/png\r\n\r\n",
    `binary\r\n--${boundary.slice(0, 10)} not a boundary\r\n--\r\n`,
    `\r\n--${boundary}\r\n`,
    'Content-Disposition: form-data; name="skipped"\r\n\r\nnever read\r\n',
    `--${boundary}--\r\nepilogue`,
  ].join("");
  const expectedFile = `binary\r\n--${boundary.slice(0, 10)} not a boundary\r\n--\r\n`;

  /** The body cut into chunks of `size` bytes, to put boundaries across chunk edges. */
  const chunked = (text: string, size: number) => {
    const all = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= all.length) return controller.close();
        controller.enqueue(all.slice(at, at + size));
        at += size;
      },
    });
  };

  it.each([1, 2, 3, 7, 16, 61, 4096])("parses the same parts with %d-byte chunks", async (size) => {
    const parts: Array<[string, string | null, string | null, string | null]> = [];
    for await (const part of readMultipart(chunked(body, size), boundary)) {
      const text = part.name === "skipped" ? null : await new Response(part.body).text();
      parts.push([part.name, part.filename, part.contentType, text]);
    }
    expect(parts).toEqual([
      ["workspace_id", null, null, "42"],
      ["file", "été.png", "image/png", expectedFile],
      ["skipped", null, null, null],
    ]);
  });

  it.each([
    ["no boundary at all", "just text"],
    ["a truncated part", `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno end`],
    ["a part without a name", `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--`],
    [
      "a part that is not form-data",
      `--${boundary}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n--${boundary}--`,
    ],
  ])("rejects %s", async (_, text) => {
    const drain = async () => {
      for await (const part of readMultipart(chunked(text, 5), boundary))
        await new Response(part.body).text();
    };
    await expect(drain()).rejects.toThrow();
  });

  it("reads the boundary from a Content-Type", () => {
    expect(formBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(formBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(formBoundary("multipart/mixed; boundary=abc")).toBeNull();
    expect(formBoundary("multipart/form-data")).toBeNull();
    expect(formBoundary(undefined)).toBeNull();
  });
});

describe("readHead", () => {
  it("takes the first bytes across chunks and leaves the rest of the body unlocked, in place", async () => {
    const source = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of [[1, 2], [3], [4, 5, 6, 7], [8]]) controller.enqueue(new Uint8Array(chunk));
        controller.close();
      },
    });
    const start = await readHead(source, 4);
    expect([...start.head]).toEqual([1, 2, 3, 4]);
    expect(start.chunks.map((c) => [...c])).toEqual([[1, 2], [3], [4, 5, 6, 7]]);
    expect(start.done).toBe(false);
    expect(start.body.locked).toBe(false);
    const rest = await start.body.getReader().read();
    expect([...rest.value!]).toEqual([8]);
    const short = await readHead(new Response(new Uint8Array([9])).body!, 64);
    expect([...short.head]).toEqual([9]);
    expect(short.done).toBe(true);
  });
});

describe("page meta tags", () => {
  it("collects og:image, og:video and twitter:image in document order, absolute and without repeats", async () => {
    const html = `<html><head>
      <meta property="og:image" content="/a.jpg?x=1&amp;y=2">
      <meta property="og:image" content="/a.jpg?x=1&amp;y=2">
      <meta property="OG:VIDEO:SECURE_URL" content="https://v.example.test/b.mp4">
      <meta name="twitter:image:src" content="c.png">
      <meta property="og:description" content="/not-media.jpg">
      <meta property="og:image" content="">
      <meta property="og:image" content="http://[bad">
    </head><body></body></html>`;
    const found = await pageMedia(new Response(html), new URL("https://site.example.test/post/1"));
    expect(found).toEqual([
      "https://site.example.test/a.jpg?x=1&y=2",
      "https://v.example.test/b.mp4",
      "https://site.example.test/post/c.png",
    ]);
  });

  it("decodes the entities attribute values carry", () => {
    expect(decodeEntities("a&amp;b&#38;c&#x26;d&quot;&unknown;")).toBe('a&b&c&d"&unknown;');
  });
});
