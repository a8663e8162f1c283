// Who a LinkedIn member may act as, on the emulator: themself (`urn:li:person:<sub>`) or the organization
// `<handle>-org` they administer (Organization Access Control by Role), and the organizations endpoints
// a connect reads its channels from: organizationAcls (roleAssignee finder) and the organizations batch
// get (learn.microsoft.com › LinkedIn › Marketing › Community Management › Organizations).
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { type Caller, type Emulated, refuse } from "../emulator";
import { collection, listOf, numberOf } from "./rules";

type Ctx = Context<BareEnv>;

/** The organization the sandbox member `handle` administers: `<handle>-org`, with its number. */
export const ORG_SUFFIX = "-org";
export const organizationId = (memberHandle: string) =>
  numberOf(`sandbox-organization:linkedin:${memberHandle}${ORG_SUFFIX}`, 8);

export const personUrn = (caller: Pick<Caller, "platformId">) => `urn:li:person:${caller.platformId}`;

/** Where a post, upload or comment of `urn` lives: the handle of the member or organization. */
export type Author = { urn: string; handle: string; organization: boolean };

/**
 * The author the caller names (`urn:li:person:…` or `urn:li:organization:…`), if the caller may act as
 * it: itself, or the organization it administers. Anything else is LinkedIn's 403.
 */
export async function authorAs(caller: Caller, urn: string, what: string): Promise<Author> {
  if (urn === personUrn(caller)) return { urn, handle: caller.handle, organization: false };
  const org = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
  if (org !== undefined && org === (await organizationId(caller.handle))) {
    return { urn, handle: `${caller.handle}${ORG_SUFFIX}`, organization: true };
  }
  if (!/^urn:li:(person|organization):[A-Za-z0-9_-]+$/.test(urn)) {
    return refuse(400, "invalid_request", `/${what} :: "${urn}" is not a valid person or organization URN`, {
      code: "ILLEGAL_ARGUMENT",
    });
  }
  return refuse(403, "forbidden", `Not enough permissions to act as ${urn} for ${what}`);
}

/** The handle a post's author URN was recorded under, for the caller's own reads. */
export async function ownsAuthor(caller: Caller, urn: string): Promise<boolean> {
  if (urn === personUrn(caller)) return true;
  const org = /^urn:li:organization:(\d+)$/.exec(urn)?.[1];
  return org !== undefined && org === (await organizationId(caller.handle));
}

/** Roles that may post as the organization (Organization Access Control by Role). */
const ROLES = [
  "ADMINISTRATOR",
  "CONTENT_ADMINISTRATOR",
  "DIRECT_SPONSORED_CONTENT_POSTER",
  "RECRUITING_POSTER",
  "LEAD_CAPTURE_ADMINISTRATOR",
  "LEAD_GEN_FORMS_MANAGER",
  "ANALYST",
  "CURATOR",
] as const;

/** GET /rest/organizationAcls?q=roleAssignee: the member is ADMINISTRATOR of `<handle>-org`. */
export async function organizationAcls(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  if (c.req.query("q") !== "roleAssignee") {
    return refuse(400, "invalid_request", "Unsupported finder", { code: "ILLEGAL_ARGUMENT" });
  }
  const role = c.req.query("role");
  if (role !== undefined && !(ROLES as readonly string[]).includes(role)) {
    return refuse(400, "invalid_request", `/role :: "${role}" is not a role`, { code: "ILLEGAL_ARGUMENT" });
  }
  const state = c.req.query("state");
  const acl = {
    role: "ADMINISTRATOR",
    roleAssignee: personUrn(caller),
    organization: `urn:li:organization:${await organizationId(caller.handle)}`,
    state: "APPROVED",
  };
  const matches = (role === undefined || role === acl.role) && (state === undefined || state === acl.state);
  return c.json(collection(matches ? [acl] : [], 0, matches ? 1 : 0));
}

/** GET /rest/organizations?ids=List(…): the caller's organization by name; others are not found here. */
export async function organizations(c: Ctx, e: Emulated) {
  const caller = await e.caller();
  const ids = listOf(c.req.query("ids"));
  if (ids === null) return refuse(400, "invalid_request", "ids must be List(…) of organization ids");
  const own = await organizationId(caller.handle);
  const results: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const id of ids) {
    if (id === own) {
      results[id] = {
        id: Number(id),
        localizedName: `${caller.handle} Inc.`,
        vanityName: `${caller.handle}${ORG_SUFFIX}`,
        primaryOrganizationType: "NONE",
        locations: [],
      };
    } else {
      errors[id] = { status: 404, message: `Organization ${id} not found` };
    }
  }
  return c.json({ results, statuses: {}, errors });
}
