// The LinkedIn adapter's reads and replies against LinkedIn's documented answers: `find` among the
// author's posts (and a post's comments), insights for organization and member posts, comments with
// pagination, the auto-plug reply, and token revocation.
import { describe, expect, it } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { configuredDefinition } from "../../../src/platforms/define";
import { linkedin } from "../../../src/platforms/linkedin";
import type { Fetch } from "../../../src/platforms/types";
import { adapterFor, CREDENTIALS, replay } from "../replay";
import {
  comment,
  commentsPage,
  errors,
  memberMetric,
  ORG,
  postsByAuthor,
  SHARE,
  shareStatistics,
  socialMetadata,
  UGC_POST,
} from "./recorded";
import { answer, expectRest, failureOf, jsonOf, member, organization, REST } from "./support";

const enc = encodeURIComponent;

/** The adapter of a Community Management app granted r_member_postAnalytics (LINKEDIN_MEMBER_ANALYTICS). */
const analyticsAdapter = (fetch: Fetch) =>
  createAdapter(
    configuredDefinition(linkedin, {
      LINKEDIN_PRODUCTS: "community_management",
      LINKEDIN_MEMBER_ANALYTICS: "true",
    }),
    { credentials: CREDENTIALS, fetch },
  );
const commentsUrl = (urn: string) => `${REST}/socialActions/${enc(urn)}/comments`;

describe("linkedin find", () => {
  it("finds an earlier attempt by its exact (escaped) text among the author's newest posts", async () => {
    const { fetch, requests } = replay(answer(postsByAuthor("Launch \\(beta\\) today")));
    const found = await adapterFor("linkedin", fetch).find(organization, {
      fingerprint: "sp-7-1",
      text: "Launch (beta) today",
    });
    expect(found).toEqual({ id: SHARE, url: `https://www.linkedin.com/feed/update/${SHARE}/` });
    expectRest(requests[0]!, "GET", `${REST}/posts?author=${enc(ORG)}&q=author&count=50`);
    expect(requests[0]!.headers.get("x-restli-method")).toBe("FINDER");
  });

  it("finds a post whose URL was left as written, the markup around it escaped", async () => {
    const { fetch } = replay(answer(postsByAuthor("Read \\(https://x.test/a_b\\) \\@now")));
    const found = await adapterFor("linkedin", fetch).find(organization, {
      fingerprint: "sp-7-1",
      text: "Read (https://x.test/a_b) @now",
    });
    expect(found?.id).toBe(SHARE);
  });

  it("finds nothing when no post has the text, or when LinkedIn will not list the member's posts (403)", async () => {
    const miss = replay(answer(postsByAuthor("Something else")));
    expect(
      await adapterFor("linkedin", miss.fetch).find(organization, { fingerprint: "f", text: "Launch" }),
    ).toBeNull();
    const denied = replay(answer(errors.denied, 403));
    expect(
      await adapterFor("linkedin", denied.fetch).find(member, { fingerprint: "f", text: "Launch" }),
    ).toBeNull();
  });

  it("finds a reply among the post's comments by the author and its text", async () => {
    const mine = comment("6637311579613413376", "Read more at example.com", ORG);
    const { fetch, requests } = replay(
      answer(commentsPage([comment("1", "Read more at example.com"), mine], 0, 2)),
    );
    const lookup = { fingerprint: "sp-plug-7", text: "Read more at example.com", replyTo: SHARE };
    const found = await adapterFor("linkedin", fetch).find(organization, lookup);
    expect(found?.id).toBe(mine.commentUrn);
    expect(found?.url).toBe(
      `https://www.linkedin.com/feed/update/${SHARE}/?commentUrn=${enc(mine.commentUrn)}`,
    );
    expectRest(requests[0]!, "GET", `${commentsUrl(SHARE)}?start=0&count=50`);
  });
});

describe("linkedin insights", () => {
  it("maps an organization post's reactions, comments, impressions and reshares", async () => {
    const { fetch, requests } = replay(answer(socialMetadata), answer(shareStatistics));
    const metrics = await adapterFor("linkedin", fetch).insights(organization, SHARE);
    // likes: every reaction type (7 + 2 + 1); engagement = (10 + 4 + 3) / 650.
    expect(metrics).toEqual({
      likes: 10,
      comments: 4,
      shares: 3,
      impressions: 650,
      quotes: 0,
      saves: 0,
      engagement_rate: 2.62,
    });
    const urls = requests.map((r) => r.url).sort();
    expect(urls).toEqual([
      `${REST}/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${enc(ORG)}&shares=List(${enc(SHARE)})`,
      `${REST}/socialMetadata/${enc(SHARE)}`,
    ]);
    for (const request of requests) expectRest(request, "GET", request.url);
  });

  it("asks share statistics by ugcPosts for a ugcPost, and counts statistics LinkedIn refuses (403) as 0", async () => {
    const { fetch, requests } = replay(answer(socialMetadata), answer(errors.denied, 403));
    const metrics = await adapterFor("linkedin", fetch).insights(organization, UGC_POST);
    expect(metrics).toMatchObject({ likes: 10, comments: 4, impressions: 0, shares: 0, engagement_rate: 0 });
    expect(requests.some((r) => r.url.includes(`&ugcPosts=List(${enc(UGC_POST)})`))).toBe(true);
  });

  it("maps a member post's analytics, one metric per call (LinkedIn's query types count no saves)", async () => {
    const counts: Record<string, number> = {
      IMPRESSION: 1000,
      REACTION: 30,
      COMMENT: 5,
      RESHARE: 2,
    };
    const { fetch, requests } = replay(
      ...Object.entries(counts).map(([metric, n]) => answer(memberMetric(n, metric))),
    );
    const metrics = await analyticsAdapter(fetch).insights(member, SHARE);
    expect(metrics).toEqual({
      impressions: 1000,
      likes: 30,
      comments: 5,
      shares: 2,
      saves: 0,
      quotes: 0,
      engagement_rate: 3.7,
    });
    expect(requests.map((r) => r.url)).toEqual(
      Object.keys(counts).map(
        (metric) =>
          `${REST}/memberCreatorPostAnalytics?q=entity&entity=(share:${enc(SHARE)})&queryType=${metric}&aggregation=TOTAL`,
      ),
    );
  });

  it("without r_member_postAnalytics (LINKEDIN_MEMBER_ANALYTICS unset), a member post's insights are unavailable: null, nothing asked", async () => {
    for (const env of [{}, { LINKEDIN_PRODUCTS: "community_management" }]) {
      const { fetch, requests } = replay();
      const adapter = createAdapter(configuredDefinition(linkedin, env), { credentials: CREDENTIALS, fetch });
      expect(await adapter.insights(member, SHARE)).toBeNull();
      expect(requests).toHaveLength(0);
    }
  });

  it("a member post's analytics LinkedIn refuses (403) are unavailable: null, not 0", async () => {
    const { fetch } = replay(...[1, 2, 3, 4].map(() => answer(errors.denied, 403)));
    expect(await analyticsAdapter(fetch).insights(member, SHARE)).toBeNull();
  });

  it("names a member's ugcPost as (ugc:…); fails on a 5xx (transient) and an expired token (auth)", async () => {
    const ugc = replay(...[1, 2, 3, 4, 5].map(() => answer(memberMetric(1, "X"))));
    await analyticsAdapter(ugc.fetch).insights(member, UGC_POST);
    expect(ugc.requests[0]!.url).toContain(`entity=(ugc:${enc(UGC_POST)})`);
    const down = replay(answer(socialMetadata), answer(errors.server, 503));
    expect(await failureOf(adapterFor("linkedin", down.fetch).insights(organization, SHARE))).toMatchObject({
      kind: "transient",
    });
    const expired = replay(answer(errors.expired, 401), answer(shareStatistics));
    expect(
      await failureOf(adapterFor("linkedin", expired.fetch).insights(organization, SHARE)),
    ).toMatchObject({
      kind: "auth",
    });
  });
});

describe("linkedin comments", () => {
  it("maps comments and reads page after page, up to the newest 100", async () => {
    const page = (start: number, n: number) =>
      Array.from({ length: n }, (_, i) =>
        comment(String(start + i), `comment ${start + i}`, ORG, 1_700_000_000_000),
      );
    const { fetch, requests } = replay(
      answer(commentsPage(page(0, 50), 0, 130)),
      answer(commentsPage(page(50, 50), 50, 130)),
    );
    const found = await adapterFor("linkedin", fetch).comments!(organization, SHARE);
    expect(found).toHaveLength(100);
    expect(requests.map((r) => r.url)).toEqual([
      `${commentsUrl(SHARE)}?start=0&count=50`,
      `${commentsUrl(SHARE)}?start=50&count=50`,
    ]);
    expect(found[0]).toEqual({
      id: "urn:li:comment:(urn:li:activity:6636062862760562688,0)",
      content: "comment 0",
      author_name: "LinkedIn organization",
      created_at: new Date(1_700_000_000_000),
      contact: {
        name: "LinkedIn organization",
        username: ORG,
        profile_url: "https://www.linkedin.com/company/2414183/",
      },
      parent_id: null,
      url: `https://www.linkedin.com/feed/update/${SHARE}/?commentUrn=${enc("urn:li:comment:(urn:li:activity:6636062862760562688,0)")}`,
      is_own: true,
    });
  });

  it("reads a comment's answers (socialActions/{comment URN}/comments) only where commentsSummary says it has some", async () => {
    const asked = { ...comment("7", "Question?"), commentsSummary: { totalFirstLevelComments: 1 } };
    const parent = asked.commentUrn;
    const answerOf = { ...comment("8", "Answer", ORG), parentComment: parent };
    const { fetch, requests } = replay(
      answer(commentsPage([asked, comment("9", "Nice!")], 0, 2)),
      answer(commentsPage([answerOf], 0, 1)),
    );
    const found = await adapterFor("linkedin", fetch).comments!(organization, SHARE);
    expect(requests.map((r) => r.url)).toEqual([
      `${commentsUrl(SHARE)}?start=0&count=50`,
      // Rest.li encodes the URN's parentheses too.
      `${REST}/socialActions/urn%3Ali%3Acomment%3A%28urn%3Ali%3Aactivity%3A6636062862760562688%2C7%29/comments?start=0&count=50`,
    ]);
    expect(found.map((c) => [c.content, c.parent_id, c.is_own])).toEqual([
      ["Question?", null, false],
      ["Answer", parent, true],
      ["Nice!", null, false],
    ]);
  });

  it("stops at the last page, names members, and has none where LinkedIn refuses the read (403)", async () => {
    const { fetch, requests } = replay(answer(commentsPage([comment("9", "Nice!")], 0, 1)));
    const [only] = await adapterFor("linkedin", fetch).comments!(organization, SHARE);
    expect(requests).toHaveLength(1);
    expect(only).toMatchObject({
      content: "Nice!",
      author_name: "LinkedIn member",
      contact: { username: "urn:li:person:A1b2C3d4", profile_url: null },
    });
    const denied = replay(answer(errors.denied, 403));
    expect(await adapterFor("linkedin", denied.fetch).comments!(member, SHARE)).toEqual([]);
  });
});

describe("linkedin reply and revoke", () => {
  it("replies with a comment by the author under the post", async () => {
    const made = comment("6637311579613413376", "Read more", ORG);
    const { fetch, requests } = replay(answer(made, 201, { "x-restli-id": made.id }));
    const reply = await adapterFor("linkedin", fetch).reply!(organization, SHARE, "Read more", "sp-plug-7");
    expect(reply).toEqual({
      id: made.commentUrn,
      url: `https://www.linkedin.com/feed/update/${SHARE}/?commentUrn=${enc(made.commentUrn)}`,
    });
    expectRest(requests[0]!, "POST", commentsUrl(SHARE));
    expect(await jsonOf(requests[0]!)).toEqual({ actor: ORG, object: SHARE, message: { text: "Read more" } });
  });

  it("builds the comment URN from x-restli-id when the answer has no body", async () => {
    const { fetch } = replay(
      new Response(null, { status: 201, headers: { "x-restli-id": "6637311579613413376" } }),
    );
    const reply = await adapterFor("linkedin", fetch).reply!(member, SHARE, "Hi", "sp-plug-8");
    expect(reply.id).toBe(`urn:li:comment:(${SHARE},6637311579613413376)`);
  });

  it("revokes the token with the client credentials", async () => {
    const { fetch, requests } = replay(new Response(null, { status: 200 }));
    expect(await adapterFor("linkedin", fetch).revoke(organization)).toBe(true);
    const [request] = requests as [Request];
    expect(request.method).toBe("POST");
    expect(request.url).toBe("https://www.linkedin.com/oauth/v2/revoke");
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(
      Object.fromEntries(new URLSearchParams(new TextDecoder().decode(await request.arrayBuffer()))),
    ).toEqual({
      client_id: "client-123",
      client_secret: "secret-456",
      token: organization.accessToken,
    });
  });
});
