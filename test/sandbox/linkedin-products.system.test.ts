// LinkedIn's two app configurations on the sandbox (LINKEDIN_PRODUCTS, src/platforms/linkedin/products.ts):
// each consent asks only for its products' scopes and the emulator refuses any other as LinkedIn does
// (`unauthorized_scope_error`); delegation and connect work in each; a member app's connect stores the
// profile at once (no pages), a Community Management app's reads the basic profile and offers the pages.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { SPECS } from "../../src/platforms/catalog";
import { configuredDefinition } from "../../src/platforms/define";
import { sandboxClient, sandboxPlatformId } from "../../src/platforms/sandbox/shapes";
import { APP_CALLBACK, Browser, createApp, createSession, locationOf, runFlow } from "../delegation/support";
import { call, ORIGIN } from "../support/client";
import { accountRow, connected, unique } from "./support";

const vars = env as unknown as Record<string, string | undefined>;
const products = vars.LINKEDIN_PRODUCTS;
afterEach(() => {
  vars.LINKEDIN_PRODUCTS = products;
});

/** The platform's consent URL a service authorize URL redirects to, and its scope. */
async function consentOf(authorizeUrl: string) {
  const browser = new Browser();
  const url = new URL(locationOf(await browser.get(authorizeUrl)));
  return { url, scope: url.searchParams.get("scope"), browser };
}

/** LinkedIn's authorize URL on the emulator, asking for `scope`. */
const authorizeWith = (scope: string) => {
  const url = new URL(`${ORIGIN}/sandbox/linkedin/oauth/v2/authorization`);
  url.searchParams.set("client_id", sandboxClient("linkedin").clientId);
  url.searchParams.set("redirect_uri", `${ORIGIN}/api/oauth/delegate/callback`);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", scope);
  url.searchParams.set("state", "st-1");
  return url.toString();
};

describe("LinkedIn app configurations (LINKEDIN_PRODUCTS)", () => {
  it("member (the default): connect and delegation ask for Sign In and Share's scopes; the profile is the account", async () => {
    delete vars.LINKEDIN_PRODUCTS;
    expect(configuredDefinition(SPECS.linkedin, env).connect.scopes).toEqual([
      "openid",
      "profile",
      "w_member_social",
    ]);
    const handle = `m${unique()}`;
    // One channel (the profile): stored at once, no chooser.
    const account = await connected("linkedin", handle);
    const row = await accountRow(account.accountId);
    expect(row.platform_user_id).toBe(`urn:li:person:${await sandboxPlatformId("linkedin", handle)}`);

    const app = await createApp();
    const delegation = await consentOf(await createSession(app, { platform: "linkedin" }));
    expect(delegation.scope).toBe("openid profile");
    const flow = await runFlow(await createSession(app, { platform: "linkedin" }), { handle });
    expect(`${flow.landed.origin}${flow.landed.pathname}`).toBe(APP_CALLBACK);
    expect(flow.landed.searchParams.get("platform_id")).toBe(await sandboxPlatformId("linkedin", handle));
  });

  it("member: the connect's consent URL carries no organization scope", async () => {
    vars.LINKEDIN_PRODUCTS = "member";
    const { key, workspace } = await connected("linkedin");
    const started = await call("POST", "/api/v1/accounts/connect", {
      key,
      body: { workspace_id: workspace.id, platform: "linkedin", redirect_url: "https://app.example.test/c" },
    });
    expect(started.status).toBe(201);
    expect((await consentOf(started.body.authorize_url)).scope).toBe("openid profile w_member_social");
  });

  it("community_management: its scopes only; delegation reads the basic profile; connect offers the pages", async () => {
    vars.LINKEDIN_PRODUCTS = "community_management";
    const app = await createApp();
    const handle = `c${unique()}`;
    const delegation = await consentOf(await createSession(app, { platform: "linkedin" }));
    expect(delegation.scope).toBe("r_basicprofile");
    const flow = await runFlow(await createSession(app, { platform: "linkedin" }), { handle });
    expect(flow.landed.searchParams.get("platform_id")).toBe(await sandboxPlatformId("linkedin", handle));

    // The chooser's first choice, the member's profile.
    const { key, workspace } = await connected("linkedin", `x${unique()}`);
    const start = async () => {
      const started = await call("POST", "/api/v1/accounts/connect", {
        key,
        body: {
          workspace_id: workspace.id,
          platform: "linkedin",
          redirect_url: "https://app.example.test/c",
        },
      });
      expect(started.status).toBe(201);
      return started.body.authorize_url as string;
    };
    const consent = await consentOf(await start());
    expect(consent.scope?.split(" ")).toEqual([
      "r_basicprofile",
      "w_member_social",
      "w_organization_social",
      "r_organization_social",
      "rw_organization_admin",
      "r_member_postAnalytics",
    ]);
    // Both channels on the chooser: the member and the page it administers.
    const chosen = await runFlow(await start(), {
      handle: `p${unique()}`,
      channel: (labels) => labels.length - 1,
    });
    expect(chosen.steps.channelHtml).toBeDefined();
    const row = await accountRow(Number(chosen.landed.searchParams.get("account_id")));
    expect(row.platform_user_id).toMatch(/^urn:li:organization:\d+$/);
  });

  it("the emulator refuses a scope outside the app's products with unauthorized_scope_error", async () => {
    vars.LINKEDIN_PRODUCTS = "member";
    const refused = await new Browser().get(authorizeWith("openid profile w_organization_social"));
    expect(refused.status).toBe(302);
    const back = new URL(locationOf(refused));
    expect(Object.fromEntries(back.searchParams)).toEqual({
      error: "unauthorized_scope_error",
      error_description: 'Scope "w_organization_social" is not authorized for your application',
      state: "st-1",
    });
    expect((await new Browser().get(authorizeWith("openid profile w_member_social"))).status).toBe(200);

    vars.LINKEDIN_PRODUCTS = "community_management";
    const openid = new URL(locationOf(await new Browser().get(authorizeWith("openid profile"))));
    expect(openid.searchParams.get("error")).toBe("unauthorized_scope_error");
    expect((await new Browser().get(authorizeWith("r_basicprofile w_organization_social"))).status).toBe(200);
  });
});
