// Helpers shared by the operator scripts (admin CLI, dev server, seed).
import { existsSync, readFileSync } from "node:fs";

/** Reads KEY="value" lines from a .dev.vars-style file; missing file → {}. */
export function readVars(path) {
  if (!existsSync(path)) return {};
  const vars = {};
  for (const line of readFileSync(path, "utf8").split(/\r?\n/)) {
    const match = /^\s*([A-Z0-9_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (match && !line.trimStart().startsWith("#")) vars[match[1]] = match[2];
  }
  return vars;
}

/** The local dev server's origin: `npm run dev` listens on PORT (default 8787); the admin CLI follows it. */
export const localBaseUrl = (env = process.env) => `http://localhost:${Number(env.PORT || 8787)}`;

/** Calls the operator API; throws with the answer's body on a non-2xx status. */
export async function adminCall(baseUrl, token, method, path, body) {
  const response = await fetch(new URL(`/admin/v1${path}`, baseUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const error = new Error(`${method} ${path} → ${response.status}: ${text}`);
    error.status = response.status;
    error.body = parsed;
    throw error;
  }
  return parsed;
}

/**
 * A benchmark's run: `cleanup` holds undo steps, run last-in first-out by `stop()` (at the end, on a
 * signal, or when `deadlineMs` passes), which then exits with 1 if `fail()` was called, else 0.
 */
export function benchRun(name, deadlineMs) {
  const cleanup = [];
  let exitCode = 0;
  const stop = async () => {
    while (cleanup.length) {
      try {
        await cleanup.pop()();
      } catch (error) {
        console.error(`cleanup: ${error.message}`);
      }
    }
    clearTimeout(deadline);
    process.exit(exitCode);
  };
  const deadline = setTimeout(() => {
    console.error(`${name} ran out of time`);
    exitCode = 1;
    void stop();
  }, deadlineMs);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => void stop());
  return {
    cleanup,
    fail: () => {
      exitCode = 1;
    },
    stop,
  };
}
