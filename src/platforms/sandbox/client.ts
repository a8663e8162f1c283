// How adapters reach the sandbox: an in-process fetch that hands requests to the worker's own fetch
// handler (never the network; src/app.ts mounts the emulators, src/sandbox/, at /sandbox).
import { exports } from "cloudflare:workers";
import { redactUrl } from "../call";
import type { Fetch } from "../types";
import { LOOPBACK_HEADER } from "./enabled";

/** Hands a request to a worker's fetch handler without the network. */
export type Loopback = (request: Request) => Promise<Response>;

/**
 * The worker's own default export (src/index.ts) through the runtime's loopback binding: the request is
 * answered by this worker, with its own env, from a request handler, a queue consumer, the cron or a
 * Durable Object alike.
 */
const workerLoopback: Loopback = (request) => exports.default.fetch(request);

/**
 * A fetch that only reaches `${origin}/sandbox/…`, answered in-process by `loopback` (the worker itself;
 * tests may pass their own), carrying `mark` (the deployment's loopback HMAC, so that the emulators
 * answer it with SANDBOX off too). Redirects come back as they are, never followed. The answer is the worker's,
 * with the worker's env.
 */
export function sandboxFetch(
  origin: string,
  loopback: Loopback = workerLoopback,
  mark?: () => Promise<string>,
): Fetch {
  return async (input, init) => {
    const request = new Request(input, { ...init, redirect: "manual" });
    const url = new URL(request.url);
    if (url.origin !== origin || !url.pathname.startsWith("/sandbox/")) {
      throw new TypeError(`the sandbox fetch only reaches ${origin}/sandbox/, not ${redactUrl(request.url)}`);
    }
    // The emulators know the call is the adapters' own, also with SANDBOX off (test mode).
    if (mark) request.headers.set(LOOPBACK_HEADER, await mark());
    return loopback(request);
  };
}
