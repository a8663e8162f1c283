// TikTok's answer format (developers.tiktok.com › API v2 › Error handling): every answer is
// `{data, error: {code, message, log_id}}`, errors included, with TikTok's error codes; no rate-limit
// headers are documented.
import { toHex } from "../../lib/encoding";
import type { Problem } from "../emulator";

/** A log id as TikTok writes them: the UTC time to the second, then random hex. */
export const logId = () => {
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  return `${stamp}${toHex(crypto.getRandomValues(new Uint8Array(12))).toUpperCase()}`;
};

/** TikTok's codes for the emulator's reasons (Error Handling page), unless the refusal names its own. */
const CODES: Record<Problem["reason"], string> = {
  invalid_token: "access_token_invalid",
  expired_token: "access_token_invalid",
  revoked_token: "access_token_invalid",
  invalid_request: "invalid_params",
  not_found: "invalid_params",
  forbidden: "scope_not_authorized",
  too_large: "invalid_file_upload",
  rejected: "invalid_params",
  unavailable: "internal_error",
  rate_limited: "rate_limit_exceeded",
  not_ready: "invalid_params",
};

/** TikTok's error answer: `{data: {}, error: {code, message, log_id}}`. */
export const tiktokError = (problem: Problem): Response => {
  const status = problem.reason === "unavailable" ? 500 : problem.status;
  return Response.json(
    {
      data: {},
      error: {
        code: String(problem.code ?? CODES[problem.reason]),
        message: problem.message,
        log_id: logId(),
      },
    },
    { status },
  );
};

/** TikTok's success answer. */
export const ok = (data: unknown) =>
  Response.json({ data, error: { code: "ok", message: "", log_id: logId() } });
