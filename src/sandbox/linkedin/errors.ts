// LinkedIn's refusals on the emulator: its error body (`{status, serviceErrorCode, code, message}`,
// learn.microsoft.com › LinkedIn › API Guide › Error Handling) for every refused call, the refusal of a
// versioned call without its LinkedIn-Version and Rest.li headers (Marketing API versioning), and of an
// action the API does not have.
import { type Problem, refuse } from "../emulator";
import { SUPPORTED_MONTHS } from "./rules";

/** LinkedIn's answer to a refused call: its JSON error body and status, no rate-limit headers. */
export function linkedinError(problem: Problem): Response {
  const { status, code, serviceErrorCode, message, extra } = shapeOf(problem);
  return Response.json(
    { status, ...(serviceErrorCode === undefined ? {} : { serviceErrorCode }), code, message, ...extra },
    // LinkedIn documents no Retry-After or reset header on its 429: daily limits reset at midnight UTC.
    { status, headers: { "x-restli-protocol-version": "2.0.0" } },
  );
}

type Shape = {
  status: Problem["status"];
  code: string;
  serviceErrorCode?: number;
  message: string;
  extra?: Record<string, unknown>;
};

function shapeOf(problem: Problem): Shape {
  const named = typeof problem.code === "string" ? problem.code : undefined;
  const { status, message } = problem;
  switch (problem.reason) {
    case "invalid_token":
      return {
        status: 401,
        serviceErrorCode: 65600,
        code: "INVALID_ACCESS_TOKEN",
        message: "Invalid access token",
      };
    case "expired_token":
      return {
        status: 401,
        serviceErrorCode: 65601,
        code: "EXPIRED_ACCESS_TOKEN",
        message: "The token used in the request has expired",
      };
    case "revoked_token":
      return {
        status: 401,
        serviceErrorCode: 65602,
        code: "REVOKED_ACCESS_TOKEN",
        message: "The token used in the request has been revoked by the user",
      };
    case "rate_limited":
      return {
        status: 429,
        serviceErrorCode: 101,
        code: "TOO_MANY_REQUESTS",
        message: `Resource level throttle APPLICATION DAY limit for calls to this resource is reached. ${message}`,
      };
    case "forbidden":
      return { status: 403, serviceErrorCode: 100, code: named ?? "ACCESS_DENIED", message };
    case "not_found":
      return { status: 404, code: named ?? "NOT_FOUND", message };
    case "too_large":
      return { status: 413, code: "REQUEST_ENTITY_TOO_LARGE", message };
    case "unavailable":
      return { status: 503, code: "SERVICE_UNAVAILABLE", message };
    case "rejected":
      // A post refused for its content: 422 with the input error named, as LinkedIn answers a duplicate.
      return {
        status: 422,
        code: "UNPROCESSABLE_ENTITY",
        message,
        extra: {
          errorDetails: { inputErrors: [{ code: named ?? "INVALID_CONTENT", description: message }] },
        },
      };
    case "not_ready":
      return { status: 422, code: named ?? "UNPROCESSABLE_ENTITY", message };
    default:
      return { status, code: named ?? (status === 426 ? "NONEXISTENT_VERSION" : "BAD_REQUEST"), message };
  }
}

const monthIndex = (year: number, month: number) => year * 12 + (month - 1);

/**
 * The headers LinkedIn wants on every versioned call: `LinkedIn-Version` (YYYYMM or YYYYMM.RR) naming a
 * version that is out and not yet sunset (a missing one is a 400, an inactive one a 426), and
 * `X-Restli-Protocol-Version: 2.0.0` on every finder and batch call (its List(…) syntax is Rest.li 2.0).
 */
export function checkHeaders(header: (name: string) => string | undefined, url: string) {
  const version = header("linkedin-version");
  if (!version) {
    return refuse(
      400,
      "invalid_request",
      "A version must be present. Please specify a version by adding the LinkedIn-Version header.",
      { code: "VERSION_MISSING" },
    );
  }
  const parsed = /^(\d{4})(\d{2})(?:\.\d{2})?$/.exec(version.trim());
  const now = new Date();
  const current = monthIndex(now.getUTCFullYear(), now.getUTCMonth() + 1);
  const asked = parsed ? monthIndex(Number(parsed[1]), Number(parsed[2])) : Number.NaN;
  const month = parsed ? Number(parsed[2]) : 0;
  if (!parsed || month < 1 || month > 12 || asked > current || current - asked >= SUPPORTED_MONTHS) {
    return refuse(426, "invalid_request", `Requested version ${version} is not active`, {
      code: "NONEXISTENT_VERSION",
    });
  }
  const restli = header("x-restli-protocol-version");
  const query = new URL(url).search;
  if (restli !== "2.0.0" && (/[?&]q=/.test(query) || /[?&]ids=List/.test(query))) {
    return refuse(400, "invalid_request", "Invalid query parameters passed to request", {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  const method = header("x-restli-method");
  if (method !== undefined && method !== "FINDER") {
    return refuse(400, "invalid_request", "Unsupported X-RestLi-Method", { code: "ILLEGAL_ARGUMENT" });
  }
}

/** An `action=` the resource does not have. */
export function unknownAction(action: string | undefined) {
  return refuse(400, "invalid_request", `Unsupported action: ${action ?? "(none)"}`, {
    code: "ILLEGAL_ARGUMENT",
  });
}
