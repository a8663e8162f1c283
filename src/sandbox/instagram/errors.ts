import { type emulatorRouter, refuse } from "../emulator";
import { type MetaDialect, type MetaError, metaFormat, VERSION } from "../meta-graph";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

const usage = (minutes: number) => ({
  call_count: 100,
  total_cputime: 4,
  total_time: 4,
  estimated_time_to_regain_access: minutes,
});

export const INSTAGRAM_DIALECT: MetaDialect = {
  apiException: "OAuthException",
  // "We restrict certain activity to protect our community" (Error Codes: 4 / 2207051).
  rejected: { code: 4, subcode: 2_207_051, title: "Action restricted" },
  // "Instagram server error. Try again." (Error Codes: -1 / 2207001).
  unavailable: { status: 400, code: -1, subcode: 2_207_001 },
  rateLimit(problem, minutes): MetaError {
    if (problem.code === 9)
      return {
        status: 400,
        type: "OAuthException",
        code: 9,
        subcode: 2_207_042,
        message: problem.message,
        title: "Publishing limit reached",
      };
    // Business Use Case rate limits: code 80002 with X-Business-Use-Case-Usage keyed by the account.
    return {
      status: 400,
      type: "OAuthException",
      code: 80_002,
      transient: true,
      message: `There have been too many calls to this Instagram account. Wait a bit and try again. ${problem.message}`,
      headers: {
        "x-business-use-case-usage": JSON.stringify({
          [problem.account ?? "0"]: [{ type: "instagram", ...usage(minutes) }],
        }),
      },
    };
  },
};

/** Instagram's refusals, in Meta's error body. */
export const format = metaFormat(INSTAGRAM_DIALECT);

/** Any other Graph path: Meta's "Unknown path components" (2500). */
export function unknownPaths(app: Router) {
  return app.all(`/${VERSION}/*`, (c) => {
    const path = new URL(c.req.url).pathname.replace(/^\/sandbox\/instagram\/v[0-9.]+/, "");
    return refuse(400, "invalid_request", `Unknown path components: ${path}`, { code: 2500 });
  });
}
