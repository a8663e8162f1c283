// The Pages a connect offers: the user picks one of their Pages (GET /me/accounts, and the Pages of their
// business portfolios), and the account publishes as that Page, with its Page token (read with the
// long-lived user token of token.ts, so it does not expire; developers.facebook.com › Pages API).
import type { z } from "zod";
import { collectPages, graphClient } from "../meta";
import { type Channel, PlatformError, type PlatformToken, type PublishingContext } from "../types";
import { GRAPH, LABEL } from "./api";
import { businessList, pages } from "./schemas";

/** At most this many Pages are offered (100 a page, as /me/accounts pages). */
const MAX_PAGES_LISTED = 500;

/** At most this many of the user's business portfolios are looked through for their Pages. */
const MAX_BUSINESSES = 25;
const PAGE_FIELDS = "id,name,username,access_token,tasks,picture{url}";

type ListedPage = z.output<typeof pages>["data"][number];

/**
 * The Pages the user can publish on, each with its own Page token: those of GET /me/accounts, then the
 * Pages of the user's business portfolios (GET /me/businesses, then each one's `owned_pages` and
 * `client_pages`; business_management), which /me/accounts may leave out when the Page belongs to a
 * business. A business edge the token may not read (no business_management, no role on the portfolio)
 * adds nothing rather than failing the connect. Pages where the user's tasks do not include creating
 * content, or without a Page token, are left out (a Page token that cannot post would fail every publish).
 */
export async function pageChannels(token: PlatformToken, context: PublishingContext): Promise<Channel[]> {
  const graph = graphClient({
    fetch: context.fetch,
    label: LABEL,
    base: GRAPH,
    token: token.accessToken,
    appSecret: context.credentials.clientSecret,
  });
  const pagesAt = (what: string, path: string) =>
    collectPages(async (after) => {
      const query: Record<string, string> = { fields: PAGE_FIELDS, limit: "100" };
      if (after) query.after = after;
      const page = await graph.get(what, path, query, pages);
      return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
    }, MAX_PAGES_LISTED);
  // Refused for good (a permission, a role): nothing to add; anything else (expired, 5xx) still fails.
  const orNone = <T>(promise: Promise<T[]>): Promise<T[]> =>
    promise.catch((error: unknown) => {
      if (error instanceof PlatformError && error.kind === "permanent") return [];
      throw error;
    });
  const listed: ListedPage[] = await pagesAt("pages", "me/accounts");
  const businesses = await orNone(
    collectPages(async (after) => {
      const query: Record<string, string> = { fields: "id,name", limit: "100" };
      if (after) query.after = after;
      const page = await graph.get("businesses", "me/businesses", query, businessList);
      return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
    }, MAX_BUSINESSES),
  );
  for (const business of businesses) {
    if (listed.length >= MAX_PAGES_LISTED) break;
    for (const edge of ["owned_pages", "client_pages"] as const)
      listed.push(
        ...(await orNone(pagesAt(`business ${edge}`, `${encodeURIComponent(business.id)}/${edge}`))),
      );
  }
  const seen = new Set<string>();
  return listed
    .filter((page) => !seen.has(page.id) && seen.add(page.id))
    .filter((page) => page.access_token && (!page.tasks || page.tasks.includes("CREATE_CONTENT")))
    .slice(0, MAX_PAGES_LISTED)
    .map((page) => {
      const avatar = page.picture?.data?.url;
      return {
        id: page.id,
        // A Page's username (its vanity name) is its handle where it has one.
        handle: page.username ?? page.name ?? page.id,
        name: page.name ?? page.id,
        avatar: avatar && /^https:\/\//.test(avatar) ? avatar : null,
        kind: "Page",
        accessToken: page.access_token,
      };
    });
}
