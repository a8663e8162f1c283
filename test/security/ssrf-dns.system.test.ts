// Issue 10, item 2: the import guard checked only the URL's literal host, so a name pointing at
// 127.0.0.1 was fetched, stored and served back. Every host name is now resolved over DNS-over-HTTPS
// before each fetch and each redirect hop, and any private answer refuses the URL.
import { afterEach, describe, expect, it, vi } from "vitest";
import { addressRefusal, guardedFetch } from "../../src/lib/url-guard";
import { bytesResponse, freshHost, Origins, pngBytes, redirect } from "../media/support";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

afterEach(() => vi.restoreAllMocks());

const importUrls = async (key: string, workspaceId: number, urls: string[]) =>
  call("POST", "/api/v1/media/upload/url", { key, body: { workspace_id: workspaceId, urls } });

describe("media import resolves names before fetching", () => {
  it("skips a URL whose name resolves to a loopback address, and never fetches it", async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const host = freshHost("rebind");
    origins
      .resolve(new URL(host).hostname, ["127.0.0.1"])
      .on(`${host}/cat.png`, () => bytesResponse(pngBytes(), "image/png"));
    const res = await importUrls(t.key, t.workspace.id, [`${host}/cat.png`]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ media: [], count_stored: 0 });
    expect(origins.hits(`${host}/cat.png`)).toBe(0);
  });

  it.each([
    ["private", ["10.1.2.3"]],
    ["link-local (cloud metadata)", ["169.254.169.254"]],
    ["CGNAT", ["100.64.0.9"]],
    ["unique-local IPv6", ["fd00::1"]],
    ["IPv6 loopback", ["::1"]],
    ["one private among public ones", ["93.184.215.14", "192.168.1.1"]],
  ])("refuses a name resolving to %s addresses", async (_, addresses) => {
    const origins = new Origins();
    origins.install();
    origins
      .resolve("inside.example.test", addresses)
      .on("https://inside.example.test/x.png", () => new Response("x"));
    const guard = { allow: new Set<string>(), resolve: async () => addresses };
    await expect(guardedFetch("https://inside.example.test/x.png", { guard })).rejects.toMatchObject({
      permanent: true,
    });
    expect(origins.hits("https://inside.example.test/x.png")).toBe(0);
  });

  it("checks every redirect hop's name too", async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const outside = freshHost("public");
    const inside = freshHost("inside");
    origins
      .resolve(new URL(inside).hostname, ["127.0.0.1"])
      .on(`${outside}/start.png`, () => redirect(`${inside}/secret.png`))
      .on(`${inside}/secret.png`, () => bytesResponse(pngBytes(), "image/png"));
    const res = await importUrls(t.key, t.workspace.id, [`${outside}/start.png`]);
    expect(res.body.count_stored).toBe(0);
    expect(origins.hits(`${inside}/secret.png`)).toBe(0);
  });

  it("imports a name that resolves to public addresses only", async () => {
    const t = await createTenant();
    const origins = new Origins();
    origins.install();
    const host = freshHost("cdn");
    origins
      .resolve(new URL(host).hostname, ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"])
      .on(`${host}/cat.png`, () => bytesResponse(pngBytes(), "image/png"));
    const res = await importUrls(t.key, t.workspace.id, [`${host}/cat.png`]);
    expect(res.body.count_stored).toBe(1);
  });

  it("refuses a name that does not resolve, and retries when the resolver is down", async () => {
    const none = { allow: new Set<string>(), resolve: async () => [] };
    await expect(guardedFetch("https://gone.example.test/x", { guard: none })).rejects.toMatchObject({
      permanent: true,
    });
    const down = {
      allow: new Set<string>(),
      resolve: async () => {
        const { FetchFailure } = await import("../../src/lib/fetch-failure");
        throw new FetchFailure("resolver down", false);
      },
    };
    await expect(guardedFetch("https://a.example.test/x", { guard: down })).rejects.toMatchObject({
      permanent: false,
    });
  });

  it("judges resolved addresses with the same ranges as literals", () => {
    expect(addressRefusal("93.184.215.14")).toBeNull();
    expect(addressRefusal("2606:2800:21f:cb07:6820:80da:af6b:8b2c")).toBeNull();
    for (const address of [
      "127.0.0.1",
      "0.0.0.0",
      "10.0.0.1",
      "172.16.0.1",
      "192.168.0.1",
      "100.64.0.1",
      "169.254.0.1",
      "::1",
      "fe80::1",
      "fc00::1",
      "::ffff:127.0.0.1",
      "not-an-ip",
    ])
      expect(addressRefusal(address)).not.toBeNull();
  });
});
