// LinkedIn end to end through the worker, against LinkedIn's recorded answers, on a Community Management
// app (LINKEDIN_PRODUCTS=community_management): connect (consent with the Community Management scopes,
// token exchange, the basic profile /v2/me, the channel page where the test picks the organization),
// publish a two-item thread with an image (waited for until AVAILABLE) and the LinkedIn settings through the publish
// queue, sync metrics and comments (and the auto-plug reply) through the sync queue, then disconnect,
// which revokes the token; asserting what LinkedIn was sent at each step.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { expectSameBytes } from "../../support/bytes";
import { waitFor } from "../../support/wait";
import {
  accountOf,
  disconnect,
  json,
  platformServer,
  publishPost,
  type Scenario,
  syncPost,
  uploadMedia,
} from "../live/harness";
import {
  ACCESS_TOKEN,
  acls,
  comment,
  commentsPage,
  IMAGE,
  imageStatus,
  imageUpload,
  LOGO_URL,
  logoImages,
  ORG,
  organizations,
  PERSON_SUB,
  SHARE,
  shareStatistics,
  socialMetadata,
  token,
} from "./recorded";

const REST = "https://api.linkedin.com/rest";
const COMMENTS = `${REST}/socialActions/${encodeURIComponent(SHARE)}/comments`;
const jpeg = new Uint8Array(1500).map((_, i) => (i < 4 ? [0xff, 0xd8, 0xff, 0xe0][i]! : (i * 13) % 256));

// Fresh answers per request: a Response made in the test's context cannot be read in the worker's.
const server = () => {
  const made = [
    comment("6637311579613413376", "Part two", ORG),
    comment("6637311579613413377", "Get the guide", ORG),
  ];
  let next = 0;
  return platformServer([
    { method: "POST", url: "https://www.linkedin.com/oauth/v2/accessToken", reply: () => json(token) },
    { method: "POST", url: "https://www.linkedin.com/oauth/v2/revoke", reply: () => new Response(null) },
    {
      method: "GET",
      url: "https://api.linkedin.com/v2/me",
      reply: () => json({ id: PERSON_SUB, localizedFirstName: "John", localizedLastName: "Doe" }),
    },
    { method: "GET", url: `${REST}/images/`, reply: () => json(imageStatus("AVAILABLE")) },
    { method: "GET", url: `${REST}/organizationAcls?`, reply: () => json(acls) },
    { method: "GET", url: `${REST}/organizations?ids=`, reply: () => json(organizations) },
    { method: "GET", url: `${REST}/images?ids=`, reply: () => json(logoImages) },
    { method: "POST", url: `${REST}/images?action=initializeUpload`, reply: () => json(imageUpload()) },
    {
      method: "PUT",
      url: "https://www.linkedin.com/dms-uploads/",
      reply: () => new Response(null, { status: 201 }),
    },
    {
      method: "POST",
      url: `${REST}/posts`,
      reply: () => new Response(null, { status: 201, headers: { "x-restli-id": SHARE } }),
    },
    { method: "POST", url: COMMENTS, reply: () => json(made[next++], 201) },
    {
      method: "GET",
      url: `${COMMENTS}?`,
      reply: () => json(commentsPage([comment("501", "Congrats on the launch!"), made[0]], 0, 2)),
    },
    { method: "GET", url: `${REST}/socialMetadata/`, reply: () => json(socialMetadata) },
    {
      method: "GET",
      url: `${REST}/organizationalEntityShareStatistics?`,
      reply: () => json(shareStatistics),
    },
  ]);
};

export const scenario: Scenario = {
  it: "connects an organization, publishes a thread with an image, syncs it, replies, and revokes on disconnect",
  server,
  vars: { LINKEDIN_PRODUCTS: "community_management" },
  connect: {
    scopes: [
      "r_basicprofile",
      "w_member_social",
      "w_organization_social",
      "r_organization_social",
      "rw_organization_admin",
    ],
    channel: ORG,
  },
  run: async (connected, linkedin) => {
    expect(await accountOf(connected)).toMatchObject({
      platform: "linkedin",
      username: "devtestco",
      name: "DevTestCo",
      avatar: LOGO_URL,
    });
    const photo = await uploadMedia(connected, "launch.jpg", "image/jpeg", jpeg);

    const shown = await publishPost(connected, {
      content: [{ text: "We launched (finally)!", media: [photo] }, { text: "Part two" }],
      settings: { linkedin: { visibility: "PUBLIC", disable_reshare: true } },
      auto_plug: { text: "Get the guide", metric: "likes", threshold: 5 },
    });
    expect(shown.platforms[0]).toMatchObject({
      status: "PUBLISHED",
      platform_post_id: SHARE,
      post_url: `https://www.linkedin.com/feed/update/${SHARE}/`,
      error: null,
    });
    const [put] = linkedin.requests("https://www.linkedin.com/dms-uploads/");
    await expectSameBytes(put!.bytes, jpeg);
    expect(linkedin.requests(`${REST}/images/`)).toHaveLength(1);
    const [post] = linkedin.requests(`${REST}/posts`);
    expect(post!.headers.get("authorization")).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(post!.headers.get("linkedin-version")).toBe("202605");
    expect(JSON.parse(post!.body)).toEqual({
      author: ORG,
      commentary: "We launched \\(finally\\)!",
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      content: { media: { id: IMAGE } },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: true,
    });
    const commented = () => linkedin.seen.filter((r) => r.method === "POST" && r.url === COMMENTS);
    expect(commented().map((r) => JSON.parse(r.body))).toEqual([
      { actor: ORG, object: SHARE, message: { text: "Part two" } },
    ]);

    const synced = await syncPost(connected, shown.id);
    expect(synced.platforms[0].analytics).toEqual({
      likes: 10,
      comments: 4,
      shares: 3,
      quotes: 0,
      saves: 0,
      impressions: 650,
      engagement_rate: 2.62,
    });
    expect(synced.comments.map((c: any) => [c.platform, c.content, c.author_name])).toEqual(
      expect.arrayContaining([
        ["linkedin", "Congrats on the launch!", "LinkedIn member"],
        ["linkedin", "Part two", "LinkedIn organization"],
      ]),
    );
    expect(synced.comments).toHaveLength(2);
    // 10 reactions passed the threshold of 5: the plug went out as the organization's comment.
    expect(JSON.parse(commented().at(-1)!.body)).toEqual({
      actor: ORG,
      object: SHARE,
      message: { text: "Get the guide" },
    });
    const row = await env.DB.prepare("SELECT plug_post_id FROM post_platforms WHERE post_id = ?")
      .bind(shown.id)
      .first<{ plug_post_id: string }>();
    expect(row?.plug_post_id).toBe(
      "urn:li:comment:(urn:li:activity:6636062862760562688,6637311579613413377)",
    );

    expect((await disconnect(connected)).status).toBeLessThan(300);
    // The revocation runs after the answer (waitUntil), once no other account rests on the grant.
    const [revoked] = await waitFor(
      () => {
        const sent = linkedin.requests("https://www.linkedin.com/oauth/v2/revoke");
        return sent.length > 0 && sent;
      },
      { what: "the revocation" },
    );
    expect(Object.fromEntries(new URLSearchParams(revoked!.body))).toEqual({
      client_id: "client-123",
      client_secret: "secret-456",
      token: ACCESS_TOKEN,
    });
  },
};
