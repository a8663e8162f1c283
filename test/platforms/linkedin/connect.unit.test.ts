// LinkedIn's connect in each app configuration (LINKEDIN_PRODUCTS): the scopes a connect asks for (a
// delegation still asks for identity only), the profile fields of the userinfo or lite-profile answer,
// and the channels offered after consent: the member's profile, and on a Community Management app the
// Company Pages they administer, with names and logos.
import { describe, expect, it } from "vitest";
import { createAdapter } from "../../../src/platforms/adapter";
import { configuredDefinition } from "../../../src/platforms/define";
import { linkedin } from "../../../src/platforms/linkedin";
import { linkedinProducts } from "../../../src/platforms/linkedin/token";
import type { Fetch } from "../../../src/platforms/types";
import { grantedScopes } from "../../../src/sandbox/linkedin/token";
import { CREDENTIALS, adapterFor as registryAdapter, replay } from "../replay";
import {
  ACCESS_TOKEN,
  acls,
  errors,
  LOGO_URL,
  logoImages,
  ORG,
  organizations,
  PERSON,
  PERSON_SUB,
  token,
  userinfo,
} from "./recorded";
import { answer, expectRest, failureOf, REST } from "./support";

/** The adapter of a LinkedIn app with the Community Management API (LINKEDIN_PRODUCTS). */
const adapterFor = (_platform: "linkedin", fetch: Fetch) =>
  createAdapter(configuredDefinition(linkedin, { LINKEDIN_PRODUCTS: "community_management" }), {
    credentials: CREDENTIALS,
    fetch,
  });

const REDIRECT = "https://api.example.test/api/oauth/delegate/callback";
const identity = { platform_id: PERSON_SUB, handle: "John Doe", name: "John Doe", avatar: userinfo.picture };
const profile = {
  id: PERSON,
  handle: "John Doe",
  name: "John Doe",
  avatar: userinfo.picture,
  kind: "Profile",
};

describe("linkedin connect", () => {
  const scopesOf = async (adapter: ReturnType<typeof adapterFor>) => {
    const scopeOf = async (purpose: "connect" | "delegation") =>
      new URL(await adapter.authorizeUrl({ redirectUri: REDIRECT, state: "s", purpose })).searchParams.get(
        "scope",
      );
    return { connect: await scopeOf("connect"), delegation: await scopeOf("delegation") };
  };

  it("a member app (the default) asks for Sign In with LinkedIn and Share on LinkedIn's scopes only", async () => {
    expect(linkedinProducts({})).toBe("member");
    expect(linkedinProducts({ LINKEDIN_PRODUCTS: "something else" })).toBe("member");
    const scopes = await scopesOf(registryAdapter("linkedin", replay().fetch));
    expect(scopes).toEqual({ connect: "openid profile w_member_social", delegation: "openid profile" });
  });

  it("a Community Management app asks for its own scopes only, identity through r_basicprofile", async () => {
    expect(linkedinProducts({ LINKEDIN_PRODUCTS: " Community_Management " })).toBe("community_management");
    const scopes = await scopesOf(adapterFor("linkedin", replay().fetch));
    // No r_member_postAnalytics: no source shows the product grants it, and one scope the app lacks makes
    // LinkedIn refuse the whole consent.
    expect(scopes).toEqual({
      connect:
        "r_basicprofile w_member_social w_organization_social r_organization_social rw_organization_admin",
      delegation: "r_basicprofile",
    });
  });

  it("asks for r_member_postAnalytics only where LINKEDIN_MEMBER_ANALYTICS=true says the app has it", async () => {
    const withAnalytics = (env: Record<string, string>) =>
      scopesOf(
        createAdapter(configuredDefinition(linkedin, env), {
          credentials: CREDENTIALS,
          fetch: replay().fetch,
        }),
      );
    const cm = { LINKEDIN_PRODUCTS: "community_management" };
    expect((await withAnalytics({ ...cm, LINKEDIN_MEMBER_ANALYTICS: "true" })).connect).toBe(
      "r_basicprofile w_member_social w_organization_social r_organization_social rw_organization_admin r_member_postAnalytics",
    );
    expect((await withAnalytics({ ...cm, LINKEDIN_MEMBER_ANALYTICS: "no" })).connect).not.toContain(
      "r_member_postAnalytics",
    );
    // A member app has no Community Management product to ask it with.
    expect((await withAnalytics({ LINKEDIN_MEMBER_ANALYTICS: "true" })).connect).toBe(
      "openid profile w_member_social",
    );
  });

  it("asks only for scopes the emulator's own reading of LinkedIn's products grants, in every configuration", () => {
    const configurations = [
      {},
      { LINKEDIN_PRODUCTS: "community_management" },
      { LINKEDIN_PRODUCTS: "community_management", LINKEDIN_MEMBER_ANALYTICS: "true" },
      { LINKEDIN_MEMBER_ANALYTICS: "true" },
    ];
    for (const env of configurations) {
      const definition = configuredDefinition(linkedin, env);
      const granted = grantedScopes(env);
      for (const scope of [...definition.scopes, ...definition.connect.scopes])
        expect(granted.has(scope), `${scope} in ${JSON.stringify(env)}`).toBe(true);
    }
    // No OpenID Connect scope on a Community Management app: that product may not sit beside it.
    expect(grantedScopes({ LINKEDIN_PRODUCTS: "community_management" }).has("openid")).toBe(false);
    // Without LINKEDIN_MEMBER_ANALYTICS the emulated app lacks member analytics, as the adapter assumes.
    expect(grantedScopes({ LINKEDIN_PRODUCTS: "community_management" }).has("r_member_postAnalytics")).toBe(
      false,
    );
  });

  it("a Community Management app reads the member from the basic profile (/v2/me)", async () => {
    const { fetch, requests } = replay(
      answer({ id: PERSON_SUB, localizedFirstName: "John", localizedLastName: "Doe", vanityName: "jdoe" }),
    );
    const found = await adapterFor("linkedin", fetch).identity({ accessToken: ACCESS_TOKEN });
    expect(found).toEqual({ platform_id: PERSON_SUB, handle: "jdoe", name: "John Doe" });
    expect(requests[0]!.url).toBe("https://api.linkedin.com/v2/me");
    expect(requests[0]!.headers.get("authorization")).toBe(`Bearer ${ACCESS_TOKEN}`);
  });

  it("a member app lists no pages: the profile is the only channel, nothing asked", async () => {
    const { fetch, requests } = replay();
    expect(
      await registryAdapter("linkedin", fetch).channels({ accessToken: ACCESS_TOKEN }, identity),
    ).toEqual([profile]);
    expect(requests).toHaveLength(0);
  });

  it("keeps the refresh token and reads the member's name and picture from userinfo", async () => {
    const { fetch } = replay(answer(token), answer(userinfo));
    const adapter = registryAdapter("linkedin", fetch);
    const tokens = await adapter.exchangeCode({ code: "c", redirectUri: REDIRECT, purpose: "connect" });
    expect(tokens).toEqual({
      accessToken: ACCESS_TOKEN,
      refreshToken: token.refresh_token,
      expiresIn: 5184000,
    });
    expect(await adapter.identity(tokens)).toEqual(identity);
  });
});

describe("linkedin channels", () => {
  it("offers the profile and each administered organization, named and with its logo", async () => {
    const { fetch, requests } = replay(answer(acls), answer(organizations), answer(logoImages));
    const channels = await adapterFor("linkedin", fetch).channels({ accessToken: ACCESS_TOKEN }, identity);
    expect(channels).toEqual([
      profile,
      { id: ORG, handle: "devtestco", name: "DevTestCo", avatar: LOGO_URL, kind: "Organization" },
    ]);
    const [roles, lookup, logos] = requests as [Request, Request, Request];
    expectRest(roles, "GET", `${REST}/organizationAcls?q=roleAssignee&state=APPROVED&count=100`);
    expectRest(lookup, "GET", `${REST}/organizations?ids=List(2414183)`);
    expectRest(
      logos,
      "GET",
      `${REST}/images?ids=List(${encodeURIComponent("urn:li:image:C4D0BAQGiBzIk8cHw0g")})`,
    );
  });

  it("offers the profile alone when the member administers no page or the app may not ask (403)", async () => {
    const none = replay(answer({ paging: { start: 0, count: 100, links: [] }, elements: [] }));
    expect(
      await adapterFor("linkedin", none.fetch).channels({ accessToken: ACCESS_TOKEN }, identity),
    ).toEqual([profile]);
    const denied = replay(answer(errors.denied, 403));
    expect(
      await adapterFor("linkedin", denied.fetch).channels({ accessToken: ACCESS_TOKEN }, identity),
    ).toEqual([profile]);
  });

  it("offers the pages where the member may post (ADMINISTRATOR, CONTENT_ADMINISTRATOR), not the others", async () => {
    const roles = (role: string, organization: string) => ({
      roleAssignee: PERSON,
      state: "APPROVED",
      role,
      organization,
    });
    const mixed = {
      paging: { start: 0, count: 100, links: [], total: 3 },
      elements: [
        roles("ANALYST", "urn:li:organization:111"),
        roles("CONTENT_ADMINISTRATOR", ORG),
        roles("RECRUITING_POSTER", "urn:li:organization:222"),
      ],
    };
    const { fetch, requests } = replay(answer(mixed), answer(organizations), answer(logoImages));
    const channels = await adapterFor("linkedin", fetch).channels({ accessToken: ACCESS_TOKEN }, identity);
    expect(channels?.map((c) => c.id)).toEqual([PERSON, ORG]);
    expectRest(requests[1]!, "GET", `${REST}/organizations?ids=List(2414183)`);
  });

  it("shows pages without logos when the logos cannot be read, and fails on an expired token", async () => {
    const { fetch } = replay(answer(acls), answer(organizations), answer(errors.server, 500));
    const found = await adapterFor("linkedin", fetch).channels({ accessToken: ACCESS_TOKEN }, identity);
    expect(found?.[1]).toMatchObject({ id: ORG, avatar: null });
    const expired = replay(answer(errors.expired, 401));
    const error = await failureOf(
      adapterFor("linkedin", expired.fetch).channels({ accessToken: ACCESS_TOKEN }, identity),
    );
    expect(error).toMatchObject({ kind: "auth", code: "EXPIRED_ACCESS_TOKEN" });
  });
});
