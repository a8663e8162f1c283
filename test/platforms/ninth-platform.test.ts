// Adding a platform is one folder, one registry line and its enum value (docs/contributing.md, "Adding a
// platform"): a tiny Bluesky, defined here with definePlatform and never added to the enum, is looked up
// through a registry that holds it, checked, and published through the shared client against an injected
// fetch; its bases, like any platform's, can point every call elsewhere (the sandbox's emulator).
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Platform } from "../../src/db/enums";
import { accessToken, bearerGet, createAdapter, flatIdentity } from "../../src/platforms/adapter";
import { accessTokenOf } from "../../src/platforms/answers";
import { capabilitiesOf } from "../../src/platforms/capabilities";
import { SPECS } from "../../src/platforms/catalog";
import { platformClient } from "../../src/platforms/client";
import { definePlatform, everyHostAt } from "../../src/platforms/define";
import { lookupAdapter } from "../../src/platforms/index";
import { withEngagement } from "../../src/platforms/metrics";
import { defineCheck, type PlatformRules } from "../../src/platforms/rules";
import type { PlatformAdapter } from "../../src/platforms/types";
import { CREDENTIALS, json, replay } from "./replay";

const HOSTS = { api: "https://bsky.example", web: "https://bsky.app" };
const MEDIA: PlatformRules = { thread: "chain", post: { maxMedia: 4, videoAlone: true } };
const created = z.object({ uri: z.string(), cid: z.string() });

/** The whole platform: what its folder's index.ts would export. */
const bluesky = definePlatform({
  platform: "bluesky" as Platform,
  label: "Bluesky",
  hosts: HOSTS,
  endpoints: {
    authorize: `${HOSTS.web}/oauth/authorize`,
    token: `${HOSTS.api}/oauth/token`,
    identity: `${HOSTS.api}/xrpc/app.bsky.actor.getProfile`,
  },
  scopes: ["atproto"],
  connect: { scopes: ["atproto", "transition:generic"] },
  scopeSeparator: " ",
  pkce: true,
  clientIdParam: "client_id",
  tokenAuth: "body",
  denialErrors: ["access_denied"],
  parseToken: (body) => accessToken(body),
  identityRequest: bearerGet(),
  parseIdentity: flatIdentity("did", "handle"),
  settings: z.object({}).strict(),
  settingsShape: z.strictObject({}),
  textLimit: 300,
  media: MEDIA,
  check: defineCheck({ platform: "bluesky", textLimit: 300, media: MEDIA }),
  publishing: (context) => {
    const client = platformClient(context, HOSTS);
    return {
      async publish(account, draft) {
        const answer = await client.json(
          "Bluesky publish",
          client.url("api", "/xrpc/com.atproto.repo.createRecord"),
          {
            method: "POST",
            headers: {
              authorization: `Bearer ${accessTokenOf("Bluesky", account)}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({
              collection: "app.bsky.feed.post",
              record: { text: draft.items[0]!.text },
            }),
          },
          created,
        );
        const id = answer.uri.split("/").at(-1)!;
        return { id, url: `${HOSTS.web}/profile/${account.handle}/post/${id}` };
      },
      find: async () => null,
      insights: async () =>
        withEngagement({ likes: 3, comments: 1, shares: 0, quotes: 0, saves: 0, impressions: 200 }),
    };
  },
});

const registry = { ...SPECS, bluesky };
const env = { BLUESKY_CLIENT_ID: "bsky-id", BLUESKY_CLIENT_SECRET: "bsky-secret" } as unknown as Env;
const account = { handle: "ada.bsky.social", platformUserId: "did:plc:ada", accessToken: "tok" };
const item = (text: string, media = 0) => ({
  text,
  media: Array.from({ length: media }, () => ({ mime: "image/jpeg", kind: "image" as const, size: 1000 })),
});
const publishAnswer = () => json({ uri: "at://did:plc:ada/app.bsky.feed.post/3k2a", cid: "bafy" });
const draft = { items: [{ text: "Hello", media: [] }], settings: {}, fingerprint: "sp-1-1" };

describe("a ninth platform", () => {
  it("is found in a registry that holds its definition, with its credentials from env", () => {
    const { fetch } = replay();
    expect(lookupAdapter(env, "bluesky", "https://svc.test", "live", fetch).kind).toBe("unsupported");
    const lookup = lookupAdapter(env, "bluesky", "https://svc.test", "live", fetch, registry);
    expect(lookup.kind).toBe("ok");
    const unconfigured = lookupAdapter({} as Env, "bluesky", "https://svc.test", "live", fetch, registry);
    expect(unconfigured).toEqual({ kind: "not_configured", label: "Bluesky" });
  });

  it("can do what it declares, and nothing it does not: no comments, no replies, no stubs", () => {
    expect(capabilitiesOf(bluesky)).toEqual({
      text: true,
      images: true,
      video: true,
      carousels: true,
      threads: "chain",
      stories: false,
      replies: false,
      comments: false,
      commentActions: [],
      insights: true,
    });
    const { fetch } = replay();
    const adapter = (
      lookupAdapter(env, "bluesky", "https://svc.test", "live", fetch, registry) as {
        adapter: PlatformAdapter;
      }
    ).adapter;
    expect(adapter.comments).toBeUndefined();
    expect(adapter.reply).toBeUndefined();
  });

  it("checks a draft by its own rules, in the API's words", () => {
    expect(bluesky.check({ items: [item("fits", 4)], settings: {} })).toEqual([]);
    expect(bluesky.check({ items: [item("x".repeat(301), 5)], settings: {} })).toEqual([
      {
        field: "content.0.text",
        message: "The content.0.text field must not be greater than 300 characters on bluesky.",
        code: "unsupported_content",
      },
      {
        field: "content.0.media",
        message: "The content.0.media field must not have more than 4 items on bluesky.",
        code: "unsupported_content",
      },
    ]);
  });

  it("publishes through the shared client on its own hosts", async () => {
    const { fetch, requests } = replay(publishAnswer());
    const lookup = lookupAdapter(env, "bluesky", "https://svc.test", "live", fetch, registry);
    const adapter = (lookup as { adapter: PlatformAdapter }).adapter;
    expect(await adapter.publish(account, draft)).toEqual({
      id: "3k2a",
      url: "https://bsky.app/profile/ada.bsky.social/post/3k2a",
    });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST https://bsky.example/xrpc/com.atproto.repo.createRecord",
    ]);
    expect(requests[0]!.headers.get("authorization")).toBe("Bearer tok");
    expect((await adapter.insights(account, "3k2a"))!.engagement_rate).toBe(2);
    await expect(adapter.publish({ ...account, accessToken: null }, draft)).rejects.toMatchObject({
      kind: "auth",
      code: "token_missing",
    });
  });

  it("sends every call, OAuth and publishing, to the bases its context brings", async () => {
    const base = "https://svc.test/sandbox/bluesky";
    const { fetch, requests } = replay(json({ access_token: "t2" }), publishAnswer());
    const adapter = createAdapter(bluesky, {
      credentials: CREDENTIALS,
      fetch,
      hosts: everyHostAt(bluesky.hosts, base),
    });
    const consent = new URL(
      await adapter.authorizeUrl({ redirectUri: "https://svc.test/cb", state: "s", codeChallenge: "c" }),
    );
    expect(`${consent.origin}${consent.pathname}`).toBe(`${base}/oauth/authorize`);
    await adapter.exchangeCode({ code: "code", redirectUri: "https://svc.test/cb", codeVerifier: "v" });
    await adapter.publish(account, draft);
    expect(requests.map((r) => r.url)).toEqual([
      `${base}/oauth/token`,
      `${base}/xrpc/com.atproto.repo.createRecord`,
    ]);
  });

  it("may own its consent step, asynchronously", async () => {
    const adapter = createAdapter(
      { ...bluesky, authorize: async ({ state }) => `${HOSTS.web}/oauth/par?state=${state}` },
      { credentials: CREDENTIALS, fetch: replay().fetch },
    );
    expect(await adapter.authorizeUrl({ redirectUri: "https://svc.test/cb", state: "s1" })).toBe(
      "https://bsky.app/oauth/par?state=s1",
    );
  });
});

describe("the bases of the eight platforms", () => {
  it("point every call of X elsewhere, and of a platform whose URLs are still constants", async () => {
    const base = "https://svc.test/sandbox/twitter";
    const x = replay(json({ data: { id: "1", text: "Hello" } }));
    const twitter = createAdapter(SPECS.twitter, {
      credentials: CREDENTIALS,
      fetch: x.fetch,
      hosts: everyHostAt(SPECS.twitter.hosts, base),
    });
    await twitter.publish(account, draft);
    expect(x.requests.map((r) => r.url)).toEqual([`${base}/2/tweets`]);

    const pinBase = "https://svc.test/sandbox/pinterest";
    const pins = replay(json({ items: [] }));
    const pinterest = createAdapter(SPECS.pinterest, {
      credentials: CREDENTIALS,
      fetch: pins.fetch,
      hosts: everyHostAt(SPECS.pinterest.hosts, pinBase),
    });
    await pinterest.find(account, { fingerprint: "sp-1-1", text: "Hello" }).catch(() => null);
    expect(pins.requests[0]!.url.startsWith(`${pinBase}/`)).toBe(true);
  });

  it("point the OAuth calls, the reads and the publishing of all eight elsewhere", async () => {
    for (const [name, definition] of Object.entries(SPECS)) {
      const base = `https://svc.test/sandbox/${name}`;
      const requests: string[] = [];
      const fetch = async (input: RequestInfo | URL) => {
        requests.push(String(input instanceof Request ? input.url : input));
        return json({ error: { message: "down" } }, 503);
      };
      const adapter = createAdapter(definition, {
        credentials: CREDENTIALS,
        fetch,
        hosts: everyHostAt(definition.hosts, base),
      });
      const consent = await adapter.authorizeUrl({
        redirectUri: "https://svc.test/cb",
        state: "s",
        codeChallenge: "c",
        purpose: "connect",
      });
      expect(consent.startsWith(`${base}/`), name).toBe(true);
      const owner = { ...account, platformUserId: "1" };
      await adapter
        .exchangeCode({ code: "c", redirectUri: "https://svc.test/cb", codeVerifier: "v" })
        .catch(() => null);
      await adapter.insights(owner, "1").catch(() => null);
      await adapter.publish(owner, { ...draft, settings: { board_id: "b" } }).catch(() => null);
      expect(requests.length, name).toBeGreaterThan(1);
      expect(
        requests.filter((url) => !url.startsWith(`${base}/`)),
        name,
      ).toEqual([]);
    }
  });

  it("are declared by every platform, and every platform has a check", () => {
    for (const definition of Object.values(SPECS)) {
      expect(Object.keys(definition.hosts).length).toBeGreaterThan(0);
      expect(typeof definition.check).toBe("function");
      for (const endpoint of Object.values(definition.endpoints))
        expect(Object.values(definition.hosts).some((host) => endpoint.startsWith(`${host}/`))).toBe(true);
    }
  });
});
