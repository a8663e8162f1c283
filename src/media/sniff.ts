// What a body is, from its first bytes: the media types the library stores, and markup that must never
// be stored as an image. A declared Content-Type is only a hint; the bytes decide.

/** The `type` of a media item. */
import type { MediaKind } from "../db/enums";

export type { MediaKind } from "../db/enums";
export type Sniffed = { mime: string; kind: MediaKind; ext: string };

/** Enough bytes for every signature below (WebM's DocType sits within the first few dozen). */
export const SNIFF_BYTES = 64;

/** The types the library accepts, for messages and the README. */
export const SUPPORTED_TYPES =
  "JPEG, PNG, GIF, WebP, AVIF, HEIC/HEIF images; MP4, QuickTime, WebM, Matroska, 3GP, AVI videos";

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const image = (mime: string, ext: string): Sniffed => ({ mime, kind: "image", ext });
const video = (mime: string, ext: string): Sniffed => ({ mime, kind: "video", ext });

const IMAGE_BRANDS: Record<string, Sniffed> = {
  avif: image("image/avif", "avif"),
  avis: image("image/avif", "avif"),
  heic: image("image/heic", "heic"),
  heix: image("image/heic", "heic"),
  heim: image("image/heic", "heic"),
  heis: image("image/heic", "heic"),
  mif1: image("image/heif", "heif"),
  msf1: image("image/heif", "heif"),
};
const AUDIO_BRANDS = new Set(["M4A ", "M4B ", "M4P ", "F4A ", "F4B "]);

/** The media type of a body from its first bytes, or null when it is not an image or video we store. */
export function sniffMedia(bytes: Uint8Array): Sniffed | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return image("image/jpeg", "jpg");
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image("image/png", "png");
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6))) return image("image/gif", "gif");
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF") {
    const form = ascii(bytes, 8, 12);
    if (form === "WEBP") return image("image/webp", "webp");
    if (form === "AVI ") return video("video/x-msvideo", "avi");
    return null;
  }
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp") {
    const brand = ascii(bytes, 8, 12);
    if (IMAGE_BRANDS[brand]) return IMAGE_BRANDS[brand];
    if (AUDIO_BRANDS.has(brand)) return null;
    if (brand === "qt  ") return video("video/quicktime", "mov");
    if (brand.startsWith("3g2")) return video("video/3gpp2", "3g2");
    if (brand.startsWith("3gp")) return video("video/3gpp", "3gp");
    if (/^[\x20-\x7e]{4}$/.test(brand)) return video("video/mp4", "mp4");
    return null;
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) {
    return ascii(bytes, 0, bytes.length).includes("webm")
      ? video("video/webm", "webm")
      : video("video/x-matroska", "mkv");
  }
  return null;
}

/** Text that starts like markup (HTML, XML, SVG), after an optional BOM and whitespace. */
export function looksLikeMarkup(bytes: Uint8Array): boolean {
  let i = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (i < bytes.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[i]!)) i++;
  return bytes[i] === 0x3c; // "<"
}

export type Declared = "image" | "video" | "page" | "binary" | "other";

/** What a Content-Type header claims: image/*, video/*, an HTML page, an opaque binary, or other. */
export function declaredType(contentType: string | null): Declared {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "") return "binary";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type === "text/html" || type === "application/xhtml+xml") return "page";
  if (type === "application/octet-stream" || type === "binary/octet-stream") return "binary";
  return "other";
}
