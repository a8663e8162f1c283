// The SSRF guard, table-driven: every spelling of a private or local address, and the redirect walk.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  checkImportUrl,
  guardedFetch,
  hostRefusal,
  parseAllowList,
  parseIPv4,
  parseIPv6,
} from "../../src/lib/url-guard";
import { REFUSED } from "./ssrf-table";
import { Origins, publicDns, redirect } from "./support";

const PUBLIC_GUARD = { allow: new Set<string>(), resolve: publicDns };

const ALLOWED: Array<[url: string, what: string]> = [
  ["https://cdn.example.com/a.png", "public name"],
  ["http://cdn.example.com:8080/a.png?x=1#frag", "public name with port, query, fragment"],
  ["https://images.unsplash.com/photo-1?w=1080&q=80", "stock photo CDN"],
  ["http://93.184.216.34/a.png", "public IPv4"],
  ["http://100.63.255.255/a.png", "just below CGNAT"],
  ["http://100.128.0.1/a.png", "just above CGNAT"],
  ["http://172.15.255.255/a.png", "just below 172.16/12"],
  ["http://172.32.0.1/a.png", "just above 172.16/12"],
  ["http://[2606:4700:4700::1111]/a.png", "public IPv6"],
  ["HTTPS://CDN.EXAMPLE.COM/A.PNG", "upper-case scheme and host"],
];

describe("checkImportUrl", () => {
  it.each(REFUSED)("refuses %s (%s)", (url) => {
    expect(checkImportUrl(url).ok).toBe(false);
  });

  it.each(ALLOWED)("allows %s (%s)", (url) => {
    expect(checkImportUrl(url).ok).toBe(true);
  });

  it("exempts exactly the host:port pairs of IMPORT_ALLOWED_PRIVATE_HOSTS, in any spelling of the host", () => {
    const allow = parseAllowList(" 127.0.0.1:9000 ,localhost:8080,[::1]:7000,,junk");
    expect(checkImportUrl("http://127.0.0.1:9000/a.png", allow).ok).toBe(true);
    expect(checkImportUrl("https://127.0.0.1:9000/a.png", allow).ok).toBe(true);
    expect(checkImportUrl("http://2130706433:9000/a.png", allow).ok).toBe(true);
    expect(checkImportUrl("http://localhost:8080/a.png", allow).ok).toBe(true);
    expect(checkImportUrl("http://[::1]:7000/a.png", allow).ok).toBe(true);
    expect(checkImportUrl("http://127.0.0.1:9001/a.png", allow).ok).toBe(false);
    expect(checkImportUrl("http://127.0.0.1/a.png", allow).ok).toBe(false);
    expect(checkImportUrl("http://localhost:8081/a.png", allow).ok).toBe(false);
    expect(checkImportUrl("ftp://127.0.0.1:9000/a.png", allow).ok).toBe(false);
    expect(checkImportUrl("http://u:p@127.0.0.1:9000/a.png", allow).ok).toBe(false);
    expect([...parseAllowList("")]).toEqual([]);
  });
});

describe("address parsing", () => {
  it.each([
    ["127.0.0.1", 0x7f000001],
    ["127.1", 0x7f000001],
    ["0x7f000001", 0x7f000001],
    ["0177.0.0.1", 0x7f000001],
    ["2130706433", 0x7f000001],
    ["0", 0],
    ["0x", 0],
    ["1.2.3.4.", 0x01020304],
  ])("parseIPv4(%s)", (text, value) => {
    expect(parseIPv4(text)).toBe(value);
  });

  it.each(["256.0.0.1", "1.2.3.4.5", "08.0.0.1", "a.b.c.d", "4294967296"])(
    "parseIPv4(%s) is null",
    (text) => {
      expect(parseIPv4(text)).toBeNull();
    },
  );

  it("parses IPv6 with compression and an embedded IPv4", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("::ffff:127.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("2606:4700::1111")).toEqual([0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1::2::3")).toBeNull();
    expect(parseIPv6("fe80::1%eth0")).toBeNull();
    expect(parseIPv6("1:2:3:4:5:6:7")).toBeNull();
  });

  it("refuses hosts by name without resolving them", () => {
    expect(hostRefusal("cdn.example.com")).toBeNull();
    expect(hostRefusal("localhost")).not.toBeNull();
    expect(hostRefusal("x.internal.")).not.toBeNull();
  });
});

describe("guardedFetch", () => {
  const origins = new Origins();
  afterEach(() => {
    vi.restoreAllMocks();
    origins.handlers.clear();
    origins.requested.length = 0;
  });

  it("follows public redirects (relative ones too) with redirect: manual", async () => {
    const spy = origins.install();
    origins
      .on("https://a.example.test/start", () => redirect("https://b.example.test/next", 301))
      .on("https://b.example.test/next", () => redirect("/final.png", 307))
      .on("https://b.example.test/final.png", () => new Response("ok"));
    const { response, url } = await guardedFetch("https://a.example.test/start", { guard: PUBLIC_GUARD });
    expect(response.status).toBe(200);
    expect(url.href).toBe("https://b.example.test/final.png");
    expect(spy.mock.calls.every(([, init]) => (init as RequestInit).redirect === "manual")).toBe(true);
  });

  it("refuses a redirect to a private address without fetching it", async () => {
    origins.install();
    origins.on("https://a.example.test/start", () => redirect("http://0x7f000001:8080/secret"));
    await expect(guardedFetch("https://a.example.test/start", { guard: PUBLIC_GUARD })).rejects.toMatchObject(
      {
        permanent: true,
      },
    );
    expect(origins.requested).toEqual(["https://a.example.test/start"]);
  });

  it("stops after five redirects", async () => {
    origins.install();
    for (let i = 0; i < 7; i++) origins.on(`https://a.example.test/${i}`, () => redirect(`/${i + 1}`));
    origins.on("https://a.example.test/5", () => new Response("five hops in"));
    const ok = await guardedFetch("https://a.example.test/0", { guard: PUBLIC_GUARD });
    expect(await ok.response.text()).toBe("five hops in");
    origins.on("https://a.example.test/5", () => redirect("/6"));
    await expect(guardedFetch("https://a.example.test/0", { guard: PUBLIC_GUARD })).rejects.toThrow(
      /more than 5 redirects/,
    );
  });

  it("makes a network fault a transient failure", async () => {
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("connection reset"));
    await expect(guardedFetch("https://a.example.test/x", { guard: PUBLIC_GUARD })).rejects.toMatchObject({
      permanent: false,
    });
  });
});
