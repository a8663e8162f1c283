// What a LinkedIn connect may publish as: the member's own profile and, on a Community Management app
// (LINKEDIN_PRODUCTS=community_management: a member app has no organization scope to ask with), every
// organization (Company Page) the member may post as (organizationAcls, role ADMINISTRATOR or CONTENT_ADMINISTRATOR, APPROVED), named through a batch
// organizations lookup. Logos are best effort: an organization's logoV2 is a media asset URN, resolved
// to a download URL through the Images API; without it the page shows the name alone.

import { type Channel, type Identity, PlatformError, type PlatformToken } from "../types";
import { isAccessDenied, type LinkedInApi, restli } from "./api";
import { expect, images, organizationAcls, organizations } from "./schemas";
import type { LinkedInProducts } from "./token";

const ORGANIZATION = /^urn:li:organization:(\d+)$/;

/** The member's profile as a channel: `urn:li:person:<sub>`. */
export const profileChannel = (identity: Identity): Channel => ({
  id: `urn:li:person:${identity.platform_id}`,
  handle: identity.handle || identity.platform_id,
  name: identity.name ?? identity.handle ?? identity.platform_id,
  avatar: identity.avatar ?? null,
  kind: "Profile",
});

/**
 * The roles that may post as an organization (Organization Access Control by Role): an administrator,
 * or a content administrator. The roleAssignee finder takes one role, so every approved role is asked.
 */
const POSTING_ROLES = new Set(["ADMINISTRATOR", "CONTENT_ADMINISTRATOR"]);

async function administered(api: LinkedInApi, token: string): Promise<string[]> {
  const url = `${api.rest}/organizationAcls?q=roleAssignee&state=APPROVED&count=100`;
  try {
    const acls = expect(
      organizationAcls,
      await api.get("organization roles", url, token),
      "organization roles",
      "transient",
    );
    const ids = acls.elements
      .filter((acl) => POSTING_ROLES.has(acl.role ?? ""))
      .map((acl) => ORGANIZATION.exec(acl.organization ?? acl.organizationalTarget ?? "")?.[1]);
    return [...new Set(ids.filter((id): id is string => id !== undefined))];
  } catch (error) {
    // An app without the organization permissions can still publish as the member.
    if (isAccessDenied(error)) return [];
    throw error;
  }
}

/** Logo download URLs by organization id, where LinkedIn gives them. */
async function logos(api: LinkedInApi, token: string, assets: Map<string, string>) {
  const byImage = new Map(
    [...assets].map(([id, asset]) => [asset.replace(/^urn:li:digitalmediaAsset:/, "urn:li:image:"), id]),
  );
  if (byImage.size === 0) return new Map<string, string>();
  try {
    const url = `${api.rest}/images?ids=List(${[...byImage.keys()].map(restli).join(",")})`;
    const found = expect(
      images,
      await api.get("organization logos", url, token),
      "organization logos",
      "transient",
    );
    const urls = new Map<string, string>();
    for (const [image, entry] of Object.entries(found.results)) {
      const id = byImage.get(image);
      if (id && entry.downloadUrl?.startsWith("https://")) urls.set(id, entry.downloadUrl);
    }
    return urls;
  } catch (error) {
    if (error instanceof PlatformError && error.kind === "auth") throw error;
    return new Map<string, string>();
  }
}

export async function channels(
  api: LinkedInApi,
  token: PlatformToken,
  identity: Identity,
  products: LinkedInProducts = "community_management",
): Promise<Channel[]> {
  const profile = profileChannel(identity);
  if (products === "member") return [profile];
  const ids = await administered(api, token.accessToken);
  if (ids.length === 0) return [profile];
  const url = `${api.rest}/organizations?ids=List(${ids.join(",")})`;
  const found = expect(
    organizations,
    await api.get("organizations", url, token.accessToken),
    "organizations",
    "transient",
  );
  const assets = new Map<string, string>();
  for (const [id, org] of Object.entries(found.results)) {
    const asset = org.logoV2?.cropped ?? org.logoV2?.original;
    if (asset) assets.set(id, asset);
  }
  const logo = await logos(api, token.accessToken, assets);
  const pages = ids.flatMap((id): Channel[] => {
    const org = found.results[id];
    if (!org) return [];
    const name = org.localizedName ?? org.vanityName ?? `Organization ${id}`;
    return [
      {
        id: `urn:li:organization:${id}`,
        handle: org.vanityName ?? name,
        name,
        avatar: logo.get(id) ?? null,
        kind: "Organization",
      },
    ];
  });
  return [profile, ...pages];
}
