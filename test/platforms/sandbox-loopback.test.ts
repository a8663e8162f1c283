// The sandbox fetch's seam: what it hands to its loopback (the worker's own fetch handler by default), and
// what never gets that far.
import { describe, expect, it } from "vitest";
import { sandboxFetch } from "../../src/platforms/sandbox/client";
import { ORIGIN } from "../support/client";

/** A loopback that records what reaches it and answers 204. */
function recording() {
  const seen: Request[] = [];
  const loopback = async (request: Request) => {
    seen.push(request);
    return new Response(null, { status: 204 });
  };
  return { seen, loopback };
}

describe("the sandbox fetch's loopback", () => {
  it("receives only requests for the sandbox on the origin, never following redirects", async () => {
    const { seen, loopback } = recording();
    const fetch = sandboxFetch(ORIGIN, loopback);
    await expect(fetch("https://evil.test/sandbox/twitter/me")).rejects.toThrow(TypeError);
    await expect(fetch(`${ORIGIN}/api/v1/workspaces`)).rejects.toThrow(TypeError);
    await expect(fetch(`${ORIGIN}/sandboxes/twitter/me`)).rejects.toThrow(TypeError);
    expect(seen).toHaveLength(0);

    const answer = await fetch(`${ORIGIN}/sandbox/twitter/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token",
      redirect: "follow",
    });
    expect(answer.status).toBe(204);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request!.url).toBe(`${ORIGIN}/sandbox/twitter/oauth/token`);
    expect(request!.method).toBe("POST");
    expect(request!.redirect).toBe("manual");
    expect(await request!.text()).toBe("grant_type=refresh_token");
  });

  it("by default is the worker itself, which answers with its own env", async () => {
    // The worker's own fetch handler answers, with its env (SANDBOX on).
    const fetch = sandboxFetch(ORIGIN);
    const answer = await fetch(`${ORIGIN}/sandbox/twitter/me`);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: "invalid_token" });
  });
});
