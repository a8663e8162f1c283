import { describe, expect, it } from "vitest";
import { pageWindow, paginate } from "../src/http/pagination";

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

describe("paginate", () => {
  const url = new URL("https://api.example.test/api/v1/posts?include_comments=true&page=2&per_page=10");

  it("computes totals, from/to and URLs that keep the other parameters", () => {
    const p = paginate({ url, page: 2, perPage: 10, total: 25, count: 10 });
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
    const p = paginate({ url, page: 9, perPage: 10, total: 25, count: 0 });
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
    const p = paginate({ url, page: 1, perPage: 100, total: 0, count: 0 });
    expect(p).toMatchObject({ last_page: 1, from: null, to: null, prev_page_url: null, next_page_url: null });
    expect(p.links).toHaveLength(3);
  });
});
