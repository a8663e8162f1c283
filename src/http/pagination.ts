// Laravel's LengthAwarePaginator, as JSON: the totals, the page URLs, and the `links` window
// (onEachSide = 3) with "..." separators. Other query parameters are kept in every URL.
import { z } from "zod";

export const MAX_PER_PAGE = 100;

export const pageQuery = (defaultPerPage = MAX_PER_PAGE) => ({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(defaultPerPage),
});

export type PageLink = { url: string | null; label: string; active: boolean };

export type Paginator = {
  current_page: number;
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
};

const ON_EACH_SIDE = 3;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** The page numbers Laravel's UrlWindow shows, with "..." where it elides. */
export function pageWindow(current: number, last: number): Array<number | "..."> {
  if (last < ON_EACH_SIDE * 2 + 8) return range(1, last);
  const window = ON_EACH_SIDE + 4;
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), "...", last - 1, last];
  if (current > last - window) return [1, 2, "...", ...range(last - (window + (ON_EACH_SIDE - 1)), last)];
  return [1, 2, "...", ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), "...", last - 1, last];
}

export function paginate(opts: {
  url: URL;
  page: number;
  perPage: number;
  total: number;
  count: number;
}): Paginator {
  const { url, page, perPage, total, count } = opts;
  const path = `${url.origin}${url.pathname}`;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const pageUrl = (n: number) => {
    const params = new URLSearchParams(url.search);
    params.delete("page");
    params.append("page", String(n));
    return `${path}?${params.toString()}`;
  };
  const prev = page > 1 ? pageUrl(page - 1) : null;
  const next = page < lastPage ? pageUrl(page + 1) : null;
  const from = count > 0 ? (page - 1) * perPage + 1 : null;
  return {
    current_page: page,
    first_page_url: pageUrl(1),
    from,
    last_page: lastPage,
    last_page_url: pageUrl(lastPage),
    links: [
      { url: prev, label: "&laquo; Previous", active: false },
      ...pageWindow(page, lastPage).map((n) =>
        n === "..."
          ? { url: null, label: "...", active: false }
          : { url: pageUrl(n), label: String(n), active: n === page },
      ),
      { url: next, label: "Next &raquo;", active: false },
    ],
    next_page_url: next,
    path,
    per_page: perPage,
    prev_page_url: prev,
    to: from === null ? null : from + count - 1,
    total,
  };
}
