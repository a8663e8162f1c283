import { type emulatorRouter, refuse } from "../emulator";
import { type MetaDialect, type MetaError, metaFormat, VERSION } from "../meta-graph";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

export const THREADS_DIALECT: MetaDialect = {
  apiException: "THApiException",
  rejected: { code: 100 },
  unavailable: { status: 503, code: 2 },
  // A user token's calls are under the Graph API's platform rate limits: code 4 with X-App-Usage.
  rateLimit(problem): MetaError {
    return {
      status: 400,
      type: "OAuthException",
      code: 4,
      transient: true,
      message: `(#4) Application request limit reached. ${problem.message}`,
      headers: { "x-app-usage": JSON.stringify({ call_count: 100, total_cputime: 10, total_time: 10 }) },
    };
  },
};

/** Threads' refusals, in Meta's error body. */
export const format = metaFormat(THREADS_DIALECT);

/** Any other Graph path: Meta's "Unknown path components" (2500). */
export function unknownPaths(app: Router): void {
  app.all(`/${VERSION}/*`, (c) => {
    const path = new URL(c.req.url).pathname.replace(/^\/sandbox\/threads\/v[0-9.]+/, "");
    return refuse(400, "invalid_request", `Unknown path components: ${path}`, { code: 2500 });
  });
}
