// A connect's two Facebook-specific steps. The code exchange gives a short-lived user token (about an
// hour), which is swapped for a long-lived one (about 60 days) so the Page tokens read with it do not
// expire (developers.facebook.com › Facebook Login › Access Tokens › Long-Lived; Page tokens). Then the
// user picks one of their Pages (GET /me/accounts): the account publishes as that Page, with its Page
// token. The exchange is documented as a GET; the Graph API takes its parameters as a POST form too, so
// the app secret and the token travel in a body, never in a URL.
import { accessToken } from "../adapter";
import { callPlatform } from "../call";
import { collectPages, graphClient, metaCall } from "../meta";
import { type Channel, PlatformError, type PlatformToken, type PublishingContext } from "../types";
import { GRAPH, LABEL } from "./api";
import { pages } from "./schemas";

/** At most this many Pages are offered (100 a page, as /me/accounts pages). */
const MAX_PAGES_LISTED = 500;

export async function longLivedUserToken(
  token: PlatformToken,
  context: PublishingContext,
): Promise<PlatformToken> {
  const what = `${LABEL} long-lived token exchange`;
  const body = new URLSearchParams({
    grant_type: "fb_exchange_token",
    client_id: context.credentials.clientId,
    client_secret: context.credentials.clientSecret,
    fb_exchange_token: token.accessToken,
  });
  const answer = await callPlatform(
    context.fetch,
    what,
    `${GRAPH}/oauth/access_token`,
    {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
      body,
    },
    metaCall(what, false),
  );
  const long = accessToken(answer);
  if (!long) throw new PlatformError(`${what}: the answer has no access token`, { code: "invalid_response" });
  return { ...long, ...(token.userId ? { userId: token.userId } : {}) };
}

/**
 * The Pages the user can publish on, each with its own Page token. Pages where the user's tasks do not
 * include creating content are left out (a Page token that cannot post would fail every publish).
 */
export async function pageChannels(token: PlatformToken, context: PublishingContext): Promise<Channel[]> {
  const graph = graphClient({
    fetch: context.fetch,
    label: LABEL,
    base: GRAPH,
    token: token.accessToken,
    appSecret: context.credentials.clientSecret,
  });
  const listed = await collectPages(async (after) => {
    const query: Record<string, string> = {
      fields: "id,name,username,access_token,tasks,picture{url}",
      limit: "100",
    };
    if (after) query.after = after;
    const page = await graph.get("pages", "me/accounts", query, pages);
    return { data: page.data, after: page.paging?.cursors?.after, more: Boolean(page.paging?.next) };
  }, MAX_PAGES_LISTED);
  return listed
    .filter((page) => page.access_token && (!page.tasks || page.tasks.includes("CREATE_CONTENT")))
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
