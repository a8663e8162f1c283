// Laravel's LengthAwarePaginator, as JSON: the totals, the page URLs, and the `links` window
// (onEachSide = 3) with "..." separators. Other query parameters are kept in every URL.
export type PageLink = { url: string | null; label: string; active: boolean };

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

export type PageRequest = {
  /** The URL the client asked for; its path and query are kept, its origin replaced by `origin`. */
  requestUrl: string;
  /** The service's public origin (PUBLIC_BASE_URL or the request's). */
  origin: string;
  page: number;
  perPage: number;
};

/** The query parameter that says where a page starts (a cursor): only the next page's URL carries it. */
const CURSOR_PARAM = "before_id";

/** The cursor of the page after one ending with `last`: it starts below that item (none for an empty page). */
export const nextCursorAfter = (last: { id: number } | undefined) =>
  last ? { [CURSOR_PARAM]: String(last.id) } : undefined;

/**
 * The list's path on the public origin, and the URL of its page `n` (other parameters kept, a cursor
 * dropped unless `cursor` gives the one that page starts from).
 */
function pageUrls(request: PageRequest) {
  const requested = new URL(request.requestUrl);
  const path = `${request.origin}${requested.pathname}`;
  const pageUrl = (n: number, cursor: Record<string, string> = {}) => {
    const params = new URLSearchParams(requested.search);
    for (const name of ["page", CURSOR_PARAM]) params.delete(name);
    params.append("page", String(n));
    for (const [name, value] of Object.entries(cursor)) params.append(name, value);
    return `${path}?${params.toString()}`;
  };
  return { path, pageUrl };
}

/**
 * Laravel's simple paginator fields, for a list whose length is not counted (`more`: a next page
 * exists): `{current_page, per_page, next_page_url, prev_page_url}`.
 */
export function simplePage(request: PageRequest, more: boolean) {
  const { pageUrl } = pageUrls(request);
  return {
    current_page: request.page,
    per_page: request.perPage,
    next_page_url: more ? pageUrl(request.page + 1) : null,
    prev_page_url: request.page > 1 ? pageUrl(request.page - 1) : null,
  };
}

/**
 * One page of a list: `{data, current_page, …, total}`, the one shape every paginated list answers.
 * `nextCursor`: where the next page starts (e.g. `{before_id}`), carried by `next_page_url` only, so a
 * client that follows it reads each page from there instead of by its offset.
 */
export function paginated<T>(
  request: PageRequest,
  data: T[],
  total: number,
  nextCursor?: Record<string, string>,
) {
  const { page, perPage } = request;
  const { path, pageUrl } = pageUrls(request);
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const prev = page > 1 ? pageUrl(page - 1) : null;
  const next = page < lastPage ? pageUrl(page + 1, nextCursor) : null;
  const from = data.length > 0 ? (page - 1) * perPage + 1 : null;
  const links: PageLink[] = [
    { url: prev, label: "&laquo; Previous", active: false },
    ...pageWindow(page, lastPage).map((n) =>
      n === "..."
        ? { url: null, label: "...", active: false }
        : { url: pageUrl(n), label: String(n), active: n === page },
    ),
    { url: next, label: "Next &raquo;", active: false },
  ];
  return {
    data,
    current_page: page,
    first_page_url: pageUrl(1),
    from,
    last_page: lastPage,
    last_page_url: pageUrl(lastPage),
    links,
    next_page_url: next,
    path,
    per_page: perPage,
    prev_page_url: prev,
    to: from === null ? null : from + data.length - 1,
    total,
  };
}
