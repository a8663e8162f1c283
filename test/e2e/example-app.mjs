// A tiny third-party application, as docs/guide.md ("Verify a proof") describes it: its server creates a
// delegation session with its API key (never sent to the browser), sends the user's browser to
// authorize_url, and verifies the proof on its callback with the package's verifier. It imports the
// package's compiled exports (client/dist: `npm run build:client`, which `npm test` runs first).
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { createClient } from "social-publishing-api/client";
import { verifyProof } from "social-publishing-api/verify-proof";

const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch],
  );

/**
 * Starts the app on 127.0.0.1 (a free port). `serviceUrl` is the API's origin; `apiKey` and
 * `signingSecret` are the app's credentials. Every verification result is also kept in `results`.
 */
export async function startExampleApp({ serviceUrl, apiKey, signingSecret }) {
  // Per browser session: the states this app generated and has not seen come back yet.
  const pendingStates = new Map();
  const api = createClient({ baseUrl: serviceUrl, apiKey });
  const results = [];
  let origin = "";

  const sessionOf = (req, res) => {
    const existing = /(?:^|;\s*)app_session=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? "")?.[1];
    if (existing && pendingStates.has(existing)) return existing;
    const id = randomBytes(16).toString("base64url");
    pendingStates.set(id, new Set());
    res.setHeader("Set-Cookie", `app_session=${id}; Path=/; HttpOnly; SameSite=Lax`);
    return id;
  };

  const page = (res, status, result) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(
      `<!doctype html><title>Example app</title><pre id="result">${escapeHtml(JSON.stringify(result))}</pre>`,
    );
  };

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", origin);
      if (url.pathname === "/connect") {
        const session = sessionOf(req, res);
        const state = randomBytes(24).toString("base64url");
        pendingStates.get(session).add(state);
        const { data, error } = await api.POST("/api/oauth/delegate/sessions", {
          body: {
            platform: url.searchParams.get("platform") ?? "twitter",
            callback_url: `${origin}/callback`,
            state,
          },
        });
        if (error) return page(res, 502, { ok: false, reason: "session_failed", body: error });
        res.writeHead(302, { location: data.authorize_url, "cache-control": "no-store" });
        return res.end();
      }
      if (url.pathname === "/callback") {
        const states = pendingStates.get(sessionOf(req, res)) ?? new Set();
        // Single use: a state counts only once, and only for the browser session that started it.
        const result = await verifyProof(url, {
          signingSecret,
          consumeState: (state) => states.delete(state),
        });
        results.push(result);
        return page(res, result.ok ? 200 : 400, result);
      }
      page(res, 404, { ok: false, reason: "not_found" });
    } catch (error) {
      page(res, 500, { ok: false, reason: "app_error", message: String(error) });
    }
  });

  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    results,
    close: () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  };
}
