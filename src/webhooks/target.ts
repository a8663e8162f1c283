// Where a webhook may be sent: the media importer's private-address guard (src/lib/url-guard.ts)
// applied to endpoint URLs. At registration, what the URL names is checked (http or https, at most 2048
// characters, no credentials, no private, loopback or link-local address in any spelling, no local host
// name); before every delivery the host is also resolved over DNS-over-HTTPS and any non-public answer
// refuses it. Only ports 443 and 80 are allowed: a target on any port, with the deliveries log telling
// what answered, would make the service a port scanner of public hosts. IMPORT_ALLOWED_PRIVATE_HOSTS, the
// one switch that lets tests import from a loopback origin, lets them deliver to a loopback receiver (on
// the port it lists) too.
import { addressRefusal, checkImportUrl, type ImportGuard, importGuard } from "../lib/url-guard";

export type TargetCheck =
  | { ok: true; url: URL }
  /** `dns`: the host did not resolve (or the resolver failed), rather than a refused address. */
  | { ok: false; reason: string; port?: string; dns?: true };

/** The ports a webhook may be sent to. */
export const TARGET_PORTS = ["443", "80"] as const;

export type TargetEnv = Partial<Pick<Env, "IMPORT_ALLOWED_PRIVATE_HOSTS" | "IMPORT_DNS_RESOLVER">>;

const defaultPort = (url: URL) => (url.protocol === "https:" ? "443" : "80");
const isAddressLiteral = (host: string) =>
  host.startsWith("[") || /^(0x[0-9a-f]*|[0-9]+)$/.test(host.split(".").at(-1) ?? "");
const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/\.+$/, "");

/** The import guard's rules, then the port: 443 or 80, unless the allow list names the host and port. */
function checkTarget(url: string, allow: ReadonlySet<string>): TargetCheck {
  const check = checkImportUrl(url, allow);
  if (!check.ok) return check;
  const port = check.url.port || defaultPort(check.url);
  if ((TARGET_PORTS as readonly string[]).includes(port) || allow.has(`${hostOf(check.url)}:${port}`))
    return check;
  return { ok: false, reason: `port ${port} is not allowed: webhooks are sent to port 443 or 80`, port };
}

/** What the URL itself says: the registration check. */
export const checkTargetUrl = (url: string, env: TargetEnv): TargetCheck =>
  checkTarget(url, importGuard(env).allow);

/** The registration check, then the host's every address (unless it is an address or allowed). */
export async function resolveTarget(url: string, env: TargetEnv, guard: ImportGuard = importGuard(env)) {
  const check = checkTarget(url, guard.allow);
  if (!check.ok) return check;
  const host = hostOf(check.url);
  if (isAddressLiteral(host) || guard.allow.has(`${host}:${check.url.port || defaultPort(check.url)}`))
    return check;
  let addresses: string[];
  try {
    addresses = await guard.resolve(host);
  } catch {
    // The resolver's own words stay out of the log (src/webhooks/attempt.ts DELIVERY_FAILURES).
    return { ok: false, reason: `${host} could not be resolved`, dns: true } as const;
  }
  if (addresses.length === 0) return { ok: false, reason: `${host} does not resolve`, dns: true } as const;
  for (const address of addresses) {
    const refusal = addressRefusal(address);
    if (refusal) return { ok: false, reason: `${host} ${refusal}` } as const;
  }
  return check;
}
