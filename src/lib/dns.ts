// Name resolution for the SSRF guard. A Worker cannot ask the system resolver, so names are resolved
// over DNS-over-HTTPS (RFC 8484's JSON form, as Cloudflare and Google serve it) before every fetch and
// every redirect hop; an answer holding any private, loopback, link-local, CGNAT or unique-local
// address refuses the URL. The endpoint is a var (IMPORT_DNS_RESOLVER), and the resolver an argument,
// so tests answer it offline.
import { FetchFailure } from "./fetch-failure";

/** Every A and AAAA address a name resolves to (after CNAMEs); empty when it does not exist. */
export type Resolver = (host: string) => Promise<string[]>;

export const DEFAULT_DOH_ENDPOINT = "https://cloudflare-dns.com/dns-query";
const DNS_TIMEOUT_MS = 5_000;
const RECORD_TYPES = { A: 1, AAAA: 28 } as const;

type DohAnswer = { Status?: number; Answer?: Array<{ type?: number; data?: string }> };

export function dohResolver(endpoint: string, fetcher: typeof fetch = (...args) => fetch(...args)): Resolver {
  const query = async (host: string, type: keyof typeof RECORD_TYPES): Promise<string[]> => {
    const url = `${endpoint}?${new URLSearchParams({ name: host, type })}`;
    let body: DohAnswer;
    try {
      const response = await fetcher(url, {
        headers: { accept: "application/dns-json" },
        signal: AbortSignal.timeout(DNS_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = (await response.json()) as DohAnswer;
    } catch (error) {
      // The resolver being down says nothing about the name: a transient failure, retried.
      throw new FetchFailure(`could not resolve ${host}: ${String(error)}`, false);
    }
    if (body.Status === 3) return []; // NXDOMAIN
    if (body.Status !== 0)
      throw new FetchFailure(`could not resolve ${host}: DNS status ${body.Status}`, false);
    return (body.Answer ?? [])
      .filter((record) => record.type === RECORD_TYPES[type] && typeof record.data === "string")
      .map((record) => record.data as string);
  };
  return async (host) => {
    const [v4, v6] = await Promise.all([query(host, "A"), query(host, "AAAA")]);
    return [...v4, ...v6];
  };
}
