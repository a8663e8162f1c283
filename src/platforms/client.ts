// The one HTTP client platform calls go through: every URL is built from the platform's base URL map
// (its declared hosts, or the bases the registry put in the context: the sandbox's emulator points every
// host of a platform at `${origin}/sandbox/<platform>`), every answer is read and every failure
// classified by call.ts, and an answer is checked against its schema (answers.ts).
import type { z } from "zod";
import { expectShape } from "./answers";
import { type CallOptions, type PlatformAnswer, platformCall } from "./call";
import type { Hosts } from "./define";
import type { PublishingContext } from "./types";

export type Query = Record<string, string> | URLSearchParams;

export type PlatformClient = {
  /** The base URL of each host: the context's where it brings one, else the platform's own. */
  readonly hosts: Hosts;
  /** `path` (with its leading `/`) on `host`, with an optional query. */
  url(host: string, path: string, query?: Query): string;
  /** The call's JSON answer (null when empty), with its status and headers. */
  call(what: string, url: string, init: RequestInit, options?: CallOptions): Promise<PlatformAnswer>;
  /**
   * The call's answer checked against `schema`: an answer in another shape is an unknown outcome after a
   * request that changes something (anything but GET), and simply asked again after a read.
   */
  json<T>(
    what: string,
    url: string,
    init: RequestInit,
    schema: z.ZodType<T>,
    options?: CallOptions,
  ): Promise<T>;
};

/** The base URL of `host`: the context's where it brings one, else the platform's own. */
export const baseOf = (context: Pick<PublishingContext, "hosts">, hosts: Hosts, host: string): string =>
  context.hosts?.[host] ?? hosts[host] ?? "";

/** The client of a platform whose real hosts are `hosts`, for one adapter's context. */
export function platformClient(
  context: Pick<PublishingContext, "fetch" | "hosts"> & Partial<Pick<PublishingContext, "timeouts">>,
  hosts: Hosts,
): PlatformClient {
  const bases: Hosts = { ...hosts, ...context.hosts };
  // Ordinary calls take the context's call timeout unless the caller names its own (an upload's).
  const timed = (options: CallOptions = {}): CallOptions => ({
    ...options,
    timeoutMs: options.timeoutMs ?? context.timeouts?.call,
  });
  return {
    hosts: bases,
    url(host, path, query) {
      const base = bases[host];
      if (base === undefined) throw new Error(`no base URL for the host "${host}"`);
      const search = query === undefined ? "" : `${new URLSearchParams(query)}`;
      return `${base}${path}${search ? `?${search}` : ""}`;
    },
    call: (what, url, init, options) => platformCall(context.fetch, what, url, init, timed(options)),
    async json(what, url, init, schema, options) {
      const answer = await platformCall(context.fetch, what, url, init, timed(options));
      const changes = (init.method ?? "GET").toUpperCase() !== "GET";
      return expectShape(schema, answer.body, what, changes);
    },
  };
}
