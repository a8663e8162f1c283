// Replaying recorded platform answers to a real adapter: a fetch that answers in order and records every
// request, so tests assert exactly what was sent, with no network.
import type { Platform } from "../../src/db/enums";
import { createAdapter } from "../../src/platforms/adapter";
import { SPECS } from "../../src/platforms/catalog";
import type { Fetch } from "../../src/platforms/types";

export const CREDENTIALS = { clientId: "client-123", clientSecret: "secret-456" };

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A fetch that replays answers in order and records every request. */
export function replay(...answers: Array<Response | Error>) {
  const requests: Request[] = [];
  const fetch: Fetch = async (input, init) => {
    requests.push(new Request(input, init));
    const next = answers.shift();
    if (!next) throw new Error("unexpected request");
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, requests };
}

/** The platform's real adapter, talking to `fetch`. */
export const adapterFor = (platform: Platform, fetch: Fetch) =>
  createAdapter(SPECS[platform], { credentials: CREDENTIALS, endpoints: SPECS[platform].endpoints, fetch });
