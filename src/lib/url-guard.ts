// The one SSRF guard of media import: which URLs may be fetched, and a fetch that re-checks every
// redirect hop. The checks cover what the URL names (schemes, the address in every spelling the URL
// parser accepts, names that mean "this machine" or "this network") and what a name resolves to: every
// name is resolved over DNS-over-HTTPS (dns.ts) before each hop, and any non-public answer refuses it.
import { DEFAULT_DOH_ENDPOINT, dohResolver, type Resolver } from "./dns";
import { FetchFailure } from "./fetch-failure";

export const MAX_URL_LENGTH = 2048;
export const MAX_REDIRECTS = 5;

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** `IMPORT_ALLOWED_PRIVATE_HOSTS`: a comma list of `host:port` pairs (local tests only). */
export function parseAllowList(value: string | undefined): ReadonlySet<string> {
  const pairs = new Set<string>();
  for (const entry of (value ?? "").split(",")) {
    const trimmed = entry.trim().toLowerCase();
    if (!trimmed) continue;
    try {
      // Normalise through the URL parser, so "0x7f.1:80" and "127.0.0.1:80" are the same pair.
      const url = new URL(`http://${trimmed}`);
      if (!url.port && !/:80$/.test(trimmed)) continue;
      pairs.add(`${stripDots(url.hostname)}:${url.port || "80"}`);
    } catch {}
  }
  return pairs;
}

const stripDots = (host: string) => host.replace(/\.+$/, "");

const defaultPort = (url: URL) => (url.protocol === "https:" ? "443" : "80");

/** Whether media import may fetch this URL. */
export function checkImportUrl(input: string | URL, allow: ReadonlySet<string> = new Set()): UrlCheck {
  const raw = typeof input === "string" ? input : input.href;
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: "URL longer than 2048 characters" };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { ok: false, reason: "not http or https" };
  // http://good.example@127.0.0.1/ reads as good.example to a person; refuse credentials outright.
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL" };
  const host = stripDots(url.hostname.toLowerCase());
  if (allow.has(`${host}:${url.port || defaultPort(url)}`)) return { ok: true, url };
  const refusal = hostRefusal(host);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url };
}

/** Why a host (as URL.hostname gives it) must not be fetched, or null when it may be. */
export function hostRefusal(hostname: string): string | null {
  const host = stripDots(hostname.toLowerCase());
  if (!host) return "empty host";
  if (host.startsWith("[")) {
    const groups = parseIPv6(host.slice(1, -1));
    if (!groups) return "invalid IPv6 address";
    return isPublicIPv6(groups) ? null : "private or reserved IPv6 address";
  }
  const labels = host.split(".");
  // The URL parser turns every numeric spelling (2130706433, 0x7f000001, 0177.0.0.1, 127.1) into a
  // dotted quad; parse again anyway, so a host that ends in a number is never taken for a name.
  if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels.at(-1) ?? "")) {
    const address = parseIPv4(host);
    if (address === null) return "invalid IPv4 address";
    return isPublicIPv4(address) ? null : "private or reserved IPv4 address";
  }
  if (labels.length < 2) return "single-label host name";
  if (BLOCKED_NAMES.has(host)) return "local host name";
  if (BLOCKED_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "local host name";
  return null;
}

const BLOCKED_NAMES = new Set(["localhost.localdomain", "ip6-localhost", "ip6-loopback"]);
const BLOCKED_SUFFIXES = [".localhost", ".local", ".localdomain", ".internal", ".home.arpa", ".lan"];

/** An IPv4 address in any spelling WHATWG URL accepts (1 to 4 parts, decimal, 0x hex, 0 octal). */
export function parseIPv4(text: string): number | null {
  const parts = stripDots(text).split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  return numbers.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
}

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
const V4_BLOCKED: Array<[base: number, bits: number]> = [
  [v4(0, 0, 0, 0), 8], // "this network", 0.0.0.0
  [v4(10, 0, 0, 0), 8], // private
  [v4(100, 64, 0, 0), 10], // CGNAT
  [v4(127, 0, 0, 0), 8], // loopback
  [v4(169, 254, 0, 0), 16], // link-local, cloud metadata
  [v4(172, 16, 0, 0), 12], // private
  [v4(192, 0, 0, 0), 24], // IETF protocol assignments
  [v4(192, 0, 2, 0), 24], // documentation
  [v4(192, 88, 99, 0), 24], // 6to4 relay anycast
  [v4(192, 168, 0, 0), 16], // private
  [v4(198, 18, 0, 0), 15], // benchmarking
  [v4(198, 51, 100, 0), 24], // documentation
  [v4(203, 0, 113, 0), 24], // documentation
  [v4(224, 0, 0, 0), 4], // multicast
  [v4(240, 0, 0, 0), 4], // reserved, broadcast
];

const inV4 = (address: number, base: number, bits: number) =>
  bits === 0 || address >>> (32 - bits) === base >>> (32 - bits);

export const isPublicIPv4 = (address: number) =>
  !V4_BLOCKED.some(([base, bits]) => inV4(address, base, bits));

/** Eight 16-bit groups, or null; accepts "::" compression and a trailing dotted quad, not zone ids. */
export function parseIPv6(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null;
  let body = text;
  const tail: number[] = [];
  const quad = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (quad) {
    const parts = quad[1]!.split(".").map(Number);
    if (parts.some((n) => n > 255)) return null;
    const [a, b, c, d] = parts as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    body = body.slice(0, body.length - quad[1]!.length);
    if (body.endsWith(":") && !body.endsWith("::")) body = body.slice(0, -1);
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  if ([...head, ...rest].some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1 ? explicit !== 8 : explicit > 7) return null;
  const zeros = Array.from({ length: 8 - explicit }, () => 0);
  const hex = (g: string) => Number.parseInt(g, 16);
  return [...head.map(hex), ...(halves.length === 2 ? zeros : []), ...rest.map(hex), ...tail];
}

/**
 * Only global unicast (2000::/3) is public. That leaves out ::1, ::, IPv4-mapped (::ffff:0:0/96) and
 * IPv4-compatible addresses, NAT64 (64:ff9b::/96), unique-local (fc00::/7), link-local (fe80::/10) and
 * multicast; inside 2000::/3, Teredo, 6to4 (which embed IPv4 addresses), ORCHID and documentation
 * ranges are refused too.
 */
export function isPublicIPv6(groups: number[]): boolean {
  const [g0 = 0, g1 = 0] = groups;
  if ((g0 & 0xe000) !== 0x2000) return false;
  if (g0 === 0x2001 && g1 === 0x0000) return false; // Teredo 2001::/32
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0010) return false; // ORCHID 2001:10::/28
  if (g0 === 0x2001 && (g1 & 0xfff0) === 0x0020) return false; // ORCHIDv2 2001:20::/28
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation 2001:db8::/32
  if (g0 === 0x2002) return false; // 6to4 2002::/16
  if (g0 === 0x3fff && g1 <= 0x0fff) return false; // documentation 3fff::/20
  return true;
}

/** What decides whether a URL may be fetched: the test-only allow list and the name resolver. */
export type ImportGuard = { allow: ReadonlySet<string>; resolve: Resolver };

export const importGuard = (
  env: Partial<Pick<Env, "IMPORT_ALLOWED_PRIVATE_HOSTS" | "IMPORT_DNS_RESOLVER">>,
): ImportGuard => ({
  allow: parseAllowList(env.IMPORT_ALLOWED_PRIVATE_HOSTS),
  resolve: dohResolver(env.IMPORT_DNS_RESOLVER?.trim() || DEFAULT_DOH_ENDPOINT),
});

const isAddressLiteral = (host: string) =>
  host.startsWith("[") || /^(0x[0-9a-f]*|[0-9]+)$/.test(host.split(".").at(-1) ?? "");

/** Why an address a name resolved to must not be fetched, or null when it is public. */
export function addressRefusal(address: string): string | null {
  if (address.includes(":")) {
    const groups = parseIPv6(address);
    return groups && isPublicIPv6(groups) ? null : `resolves to a private or reserved address (${address})`;
  }
  const v4 = parseIPv4(address);
  return v4 !== null && isPublicIPv4(v4) ? null : `resolves to a private or reserved address (${address})`;
}

/** A name's every address must be public (an address literal was checked as such already). */
async function checkResolved(url: URL, guard: ImportGuard): Promise<void> {
  const host = stripDots(url.hostname.toLowerCase());
  if (isAddressLiteral(host) || guard.allow.has(`${host}:${url.port || defaultPort(url)}`)) return;
  const addresses = await guard.resolve(host);
  if (addresses.length === 0) throw new FetchFailure(`refused URL: ${host} does not resolve`, true);
  for (const address of addresses) {
    const refusal = addressRefusal(address);
    if (refusal) throw new FetchFailure(`refused URL: ${host} ${refusal}`, true);
  }
}

/** Fetches one request may still make; shared by all of its URLs. */
export type FetchBudget = { left: number };

export type GuardedFetchOptions = {
  guard: ImportGuard;
  fetches?: FetchBudget;
  signal?: AbortSignal;
  headers?: HeadersInit;
  maxRedirects?: number;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET with manual redirects: every hop is checked before it is fetched, at most `maxRedirects` hops.
 * Network faults are transient failures; a refused URL or redirect is a permanent one.
 */
export async function guardedFetch(
  input: string | URL,
  options: GuardedFetchOptions,
): Promise<{ response: Response; url: URL }> {
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  let target: string | URL = input;
  for (let hop = 0; ; hop++) {
    const check = checkImportUrl(target, options.guard.allow);
    if (!check.ok) throw new FetchFailure(`refused URL: ${check.reason}`, true);
    // Resolved at every hop: a redirect may name a host that points inside.
    await checkResolved(check.url, options.guard);
    if (options.fetches) {
      if (options.fetches.left <= 0) throw new FetchFailure("the request's fetch budget is spent", true);
      options.fetches.left -= 1;
    }
    let response: Response;
    try {
      response = await fetch(check.url.href, {
        method: "GET",
        redirect: "manual",
        headers: options.headers,
        signal: options.signal,
      });
    } catch (error) {
      const timedOut = options.signal?.aborted === true;
      throw new FetchFailure(timedOut ? "timed out" : `fetch failed: ${String(error)}`, false);
    }
    if (!REDIRECTS.has(response.status)) return { response, url: check.url };
    await response.body?.cancel();
    const location = response.headers.get("location");
    if (!location) throw new FetchFailure("redirect without a Location", true);
    if (hop >= maxRedirects) throw new FetchFailure(`more than ${maxRedirects} redirects`, true);
    try {
      target = new URL(location, check.url);
    } catch {
      throw new FetchFailure("redirect to an invalid URL", true);
    }
  }
}
