import { describe, expect, it } from "vitest";
import { pageWindow, paginated } from "../../src/http/pagination";

describe("pageWindow (Laravel UrlWindow, onEachSide 3)", () => {
  it("lists every page below 14 pages", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });
  it("slides near the start, in the middle and near the end", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "...", 19, 20]);
    expect(pageWindow(7, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "...", 19, 20]);
    expect(pageWindow(10, 20)).toEqual([1, 2, "...", 7, 8, 9, 10, 11, 12, 13, "...", 19, 20]);
    expect(pageWindow(14, 20)).toEqual([1, 2, "...", 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([1, 2, "...", 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });
});

describe("paginated", () => {
  const requestUrl = "http://127.0.0.1:8787/api/v1/posts?include_comments=true&page=2&per_page=10";
  const at = (page: number, perPage: number) => ({
    requestUrl,
    origin: "https://api.example.test",
    page,
    perPage,
  });
  const rows = (n: number) => Array.from({ length: n }, (_, i) => i);

  it("puts the next page's cursor on next_page_url (and the Next link) only, and drops a cursor it was given", () => {
    const withCursor = { ...at(2, 10), requestUrl: `${requestUrl}&before_id=90` };
    const p = paginated(withCursor, rows(10), 45, { before_id: "80" });
    expect(p.next_page_url).toBe(
      "https://api.example.test/api/v1/posts?include_comments=true&per_page=10&page=3&before_id=80",
    );
    expect(p.links.at(-1)!.url).toBe(p.next_page_url);
    for (const url of [
      p.prev_page_url,
      p.first_page_url,
      p.last_page_url,
      ...p.links.slice(0, -1).map((l) => l.url),
    ])
      if (url) expect(url).not.toContain("before_id");
    // On the last page there is no next page, so no cursor anywhere.
    const last = paginated({ ...withCursor, page: 5 }, rows(5), 45, { before_id: "1" });
    expect(last.next_page_url).toBeNull();
    expect(JSON.stringify(last)).not.toContain("before_id");
  });

  it("computes totals, from/to and URLs on the public origin that keep the other parameters", () => {
    const p = paginated(at(2, 10), rows(10), 25);
    expect(p).toMatchObject({ current_page: 2, last_page: 3, per_page: 10, total: 25, from: 11, to: 20 });
    expect(p.prev_page_url).toBe(
      "https://api.example.test/api/v1/posts?include_comments=true&per_page=10&page=1",
    );
    expect(p.next_page_url).toBe(
      "https://api.example.test/api/v1/posts?include_comments=true&per_page=10&page=3",
    );
    expect(p.links.map((l) => [l.label, l.active])).toEqual([
      ["&laquo; Previous", false],
      ["1", false],
      ["2", true],
      ["3", false],
      ["Next &raquo;", false],
    ]);
  });

  it("answers a page past the end with null from/to and true totals", () => {
    const p = paginated(at(9, 10), rows(0), 25);
    expect(p).toMatchObject({
      current_page: 9,
      last_page: 3,
      total: 25,
      from: null,
      to: null,
      next_page_url: null,
    });
  });

  it("has one page and no neighbours when empty", () => {
    const p = paginated(at(1, 100), rows(0), 0);
    expect(p).toMatchObject({ last_page: 1, from: null, to: null, prev_page_url: null, next_page_url: null });
    expect(p.links).toHaveLength(3);
  });
});
