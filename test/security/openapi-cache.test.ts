// GET /openapi.json was generated anew on every request (tens of milliseconds of CPU each, for anyone):
// now it is built once per isolate, and only its server (the service's public origin) varies by request.
// In a shared runtime an earlier file may have built it already, so the spy may see the one build or
// none; never one per request.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import worker from "../../src/index";
import { call } from "../support/client";

describe("GET /openapi.json", () => {
  it("is generated once per isolate, whatever the origin it names", async () => {
    const generate = vi.spyOn(app, "getOpenAPI31Document");
    const first = await call("GET", "/openapi.json");
    const built = generate.mock.calls.length;
    expect(built).toBeLessThanOrEqual(1);
    const second = await call("GET", "/openapi.json");
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(first.body.servers).toEqual([{ url: "https://api.example.test" }]);
    expect(first.headers.get("content-type")).toContain("application/json");

    // Without PUBLIC_BASE_URL the server is the request's origin: the same document, another server.
    const elsewhere = await worker.fetch(
      new Request("https://other.example.test/openapi.json"),
      { ...env, PUBLIC_BASE_URL: "" },
      createExecutionContext(),
    );
    const text = await elsewhere.text();
    const doc = JSON.parse(text) as { servers: unknown };
    expect(doc.servers).toEqual([{ url: "https://other.example.test" }]);
    // The same document, its links (the guide) on the other origin too.
    expect(JSON.parse(text.replaceAll("https://other.example.test", "https://api.example.test"))).toEqual(
      first.body,
    );

    // Built at most once, by the first request if no earlier file had: the later two built nothing.
    expect(generate).toHaveBeenCalledTimes(built);
    generate.mockRestore();
  });
});
