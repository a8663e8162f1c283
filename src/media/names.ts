// Display names of media items: from the URL's last path segment or the uploaded file name.
import type { Sniffed } from "./sniff";

const MAX_NAME = 200;

/** A clean file name that ends with an extension; the sniffed type supplies one when it is missing. */
export function mediaName(candidate: string | null | undefined, sniffed: Sniffed): string {
  let name = candidate ?? "";
  try {
    name = decodeURIComponent(name);
  } catch {}
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  name = name.replace(/[\u0000-\u001f\u007f"\\/<>]/g, "").trim();
  if (!name || name === "." || name === "..") name = sniffed.kind;
  if (!/\.[a-z0-9]{2,5}$/i.test(name)) name = `${name}.${sniffed.ext}`;
  if (name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME - sniffed.ext.length - 1)}.${sniffed.ext}`;
  return name;
}

/** The last non-empty segment of a URL's path, or null. */
export const lastSegment = (url: URL) => url.pathname.split("/").filter(Boolean).at(-1) ?? null;
