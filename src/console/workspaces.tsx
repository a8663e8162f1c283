// The workspaces page: the user's workspaces (zone, approval policy, members, accounts), create one,
// change its zone or approval policy, add a member by address and remove one. Creating and adding are the operator API's own functions
// (src/admin/queries.ts) and their rules (src/admin/schemas.ts); the rest is src/workspaces/.
import type { FC } from "hono/jsx";
import { z } from "zod";
import { accountsOfUser } from "../accounts/queries";
import { addMember, createWorkspace } from "../admin/queries";
import { createWorkspaceBody } from "../admin/schemas";
import type { Database } from "../db/client";
import { APPROVAL_POLICIES, type ApprovalPolicy } from "../db/enums";
import { accessibleWorkspace, type Tenant } from "../db/tenancy";
import { ApiError, notFound } from "../http/errors";
import { messagesByField } from "../http/messages";
import { membersOfUserWorkspaces, removeMember, userInShardByEmail } from "../workspaces/members";
import { updateWorkspace, workspacesOfUser } from "../workspaces/queries";
import { FormErrors, Hidden, Layout, type Nav } from "./layout";
import { type Ctx, consoleRoutes, navOf, signedIn, tenantOf } from "./page-routes";
import type { Session } from "./sessions";

type Errors = Record<string, string[]>;

/** A path's id, or the 404 page an unknown or another user's id gets (the two are not told apart). */
export function pathId(value: string, what: string): number {
  const id = Number(value);
  if (!/^\d{1,16}$/.test(value) || !Number.isSafeInteger(id)) throw notFound(what);
  return id;
}

/** A 422 a domain function threw (a field's rule) becomes the page's form errors; anything else flies on. */
export function fieldErrors(error: unknown): Errors {
  if (error instanceof ApiError && error.status === 422) return error.body.errors ?? {};
  throw error;
}

const form = (c: Ctx) => c.var.form ?? {};
const text = (value: unknown) => (typeof value === "string" ? value : "");

/** The zone rule of the operator API's create (an IANA zone the runtime knows), required here. */
const zone = createWorkspaceBody.shape.timezone.unwrap();
const createForm = z.object({ name: createWorkspaceBody.shape.name, timezone: zone });
const zoneForm = z.object({ timezone: zone });
const memberForm = z.object({ email: z.email({ error: "Enter an email address." }).max(255) });

/** Said the same for an address of no user and of a user in another database: nothing tells them apart. */
const NOT_ADDABLE =
  "This address cannot be added. A member must already have an account on this service, in the same database (shard) as the workspace; an operator can tell you which.";

export type ListedWorkspace = {
  id: number;
  name: string;
  timezone: string;
  approval: ApprovalPolicy;
  accounts: number;
  members: { userId: number; name: string; email: string }[];
};

async function listed(db: Database, tenant: Tenant): Promise<ListedWorkspace[]> {
  const [rows, accountRows, memberRows] = await db.batch([
    workspacesOfUser(db, tenant),
    accountsOfUser(db, tenant),
    membersOfUserWorkspaces(db, tenant),
  ]);
  const accounts = Map.groupBy(accountRows, (a) => a.workspaceId);
  const members = Map.groupBy(memberRows, (m) => m.workspaceId);
  return rows.map((w) => ({
    id: w.id,
    name: w.name,
    timezone: w.timezone,
    approval: w.approval,
    accounts: accounts.get(w.id)?.length ?? 0,
    members: members.get(w.id) ?? [],
  }));
}

async function page(c: Ctx, session: Session, db: Database, errors?: { at: string; errors: Errors }) {
  const workspaces = await listed(db, tenantOf(c, session));
  return c.html(
    <WorkspacesPage nav={await navOf(c, session)} workspaces={workspaces} refused={errors} />,
    errors ? 422 : 200,
  );
}

/** The workspace if it is one of the user's; else the 404 page. */
async function ownWorkspace(db: Database, tenant: Tenant, value: string) {
  const [workspace] = await accessibleWorkspace(db, tenant, pathId(value, "Workspace"));
  if (!workspace) throw notFound("Workspace");
  return workspace;
}

const back = (c: Ctx) => c.redirect("/console/workspaces", 303);

export const workspaceRoutes = consoleRoutes()
  .get("/workspaces", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    return page(c, auth.session, auth.db);
  })
  .post("/workspaces", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const parsed = createForm.safeParse({ name: form(c).name, timezone: text(form(c).timezone) });
    if (!parsed.success)
      return page(c, auth.session, auth.db, {
        at: "create",
        errors: messagesByField(parsed.error.issues, parsed.error),
      });
    const fields = createWorkspaceBody.parse({
      user_id: auth.session.userId,
      mode: auth.tenant.mode,
      ...parsed.data,
    });
    await createWorkspace(c.var.shards, fields);
    return back(c);
  })
  .post("/workspaces/:id/timezone", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const workspace = await ownWorkspace(auth.db, auth.tenant, c.req.param("id"));
    const parsed = zoneForm.safeParse({ timezone: text(form(c).timezone) });
    if (!parsed.success)
      return page(c, auth.session, auth.db, {
        at: `workspace-${workspace.id}`,
        errors: messagesByField(parsed.error.issues, parsed.error),
      });
    if (!(await updateWorkspace(auth.db, auth.tenant, workspace.id, { timezone: parsed.data.timezone })))
      throw notFound("Workspace");
    return back(c);
  })
  .post("/workspaces/:id/approval", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const workspace = await ownWorkspace(auth.db, auth.tenant, c.req.param("id"));
    const approval = text(form(c).approval);
    if (!(APPROVAL_POLICIES as readonly string[]).includes(approval))
      return page(c, auth.session, auth.db, {
        at: `workspace-${workspace.id}`,
        errors: { approval: ["Choose whether posts need approval."] },
      });
    if (
      !(await updateWorkspace(auth.db, auth.tenant, workspace.id, { approval: approval as ApprovalPolicy }))
    )
      throw notFound("Workspace");
    return back(c);
  })
  .post("/workspaces/:id/members", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const workspace = await ownWorkspace(auth.db, auth.tenant, c.req.param("id"));
    const at = `workspace-${workspace.id}`;
    const parsed = memberForm.safeParse({ email: text(form(c).email).trim() });
    if (!parsed.success)
      return page(c, auth.session, auth.db, {
        at,
        errors: messagesByField(parsed.error.issues, parsed.error),
      });
    // Only the workspace's shard is asked: a user elsewhere could not be a member, and is not revealed.
    const user = await userInShardByEmail(auth.db, parsed.data.email);
    if (!user) return page(c, auth.session, auth.db, { at, errors: { email: [NOT_ADDABLE] } });
    try {
      await addMember(c.var.shards, workspace.id, user.id);
    } catch (error) {
      return page(c, auth.session, auth.db, { at, errors: fieldErrors(error) });
    }
    return back(c);
  })
  .post("/workspaces/:id/members/:userId/remove", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const workspaceId = pathId(c.req.param("id"), "Workspace");
    const memberId = pathId(c.req.param("userId"), "Member");
    const removal = await removeMember(auth.db, auth.tenant, workspaceId, memberId);
    if (removal === "not_found") throw notFound("Member");
    if (removal === "last_member")
      return page(c, auth.session, auth.db, {
        at: `workspace-${workspaceId}`,
        errors: { member: ["The last member of a workspace cannot be removed."] },
      });
    return back(c);
  });

const WorkspaceCard: FC<{ workspace: ListedWorkspace; csrf: string; errors?: Errors }> = ({
  workspace: w,
  csrf,
  errors,
}) => (
  <li class="card" id={`workspace-${w.id}`}>
    <h3>{w.name}</h3>
    <FormErrors errors={errors} />
    <dl>
      <dt>Timezone</dt>
      <dd>{w.timezone}</dd>
      <dt>Approval</dt>
      <dd>{w.approval === "required" ? "Required before publishing" : "Not required"}</dd>
      <dt>Accounts</dt>
      <dd>
        <a href="/console/accounts">{`${w.accounts} connected`}</a>
      </dd>
    </dl>
    <h4>Members</h4>
    <ul class="members">
      {w.members.map((m) => (
        <li>
          <span>
            {m.name} <span class="muted">{m.email}</span>
          </span>
          {w.members.length > 1 && (
            <form method="post" action={`/console/workspaces/${w.id}/members/${m.userId}/remove`}>
              <Hidden csrf={csrf} />
              <button type="submit" class="link-button" aria-label={`Remove ${m.email} from ${w.name}`}>
                Remove
              </button>
            </form>
          )}
        </li>
      ))}
    </ul>
    <form method="post" action={`/console/workspaces/${w.id}/members`}>
      <Hidden csrf={csrf} />
      <label for={`member-${w.id}`}>Add a member by email</label>
      <input type="email" id={`member-${w.id}`} name="email" required maxlength={255} autocomplete="off" />
      <div class="actions">
        <button type="submit" aria-label={`Add member to ${w.name}`}>
          Add member
        </button>
      </div>
    </form>
    <form method="post" action={`/console/workspaces/${w.id}/approval`}>
      <Hidden csrf={csrf} />
      <fieldset>
        <legend>Approval before publishing</legend>
        <label>
          <input type="radio" name="approval" value="none" checked={w.approval === "none"} /> Not required
        </label>
        <label>
          <input type="radio" name="approval" value="required" checked={w.approval === "required"} />{" "}
          Required: posts wait until a member or a key with the approvals ability approves them
        </label>
      </fieldset>
      <div class="actions">
        <button type="submit" aria-label={`Save approval policy of ${w.name}`}>
          Save approval policy
        </button>
      </div>
    </form>
    <form method="post" action={`/console/workspaces/${w.id}/timezone`}>
      <Hidden csrf={csrf} />
      <label for={`zone-${w.id}`}>Timezone (IANA, such as Europe/Paris)</label>
      <input type="text" id={`zone-${w.id}`} name="timezone" required value={w.timezone} maxlength={64} />
      <div class="actions">
        <button type="submit" aria-label={`Save timezone of ${w.name}`}>
          Save timezone
        </button>
      </div>
    </form>
  </li>
);

export const WorkspacesPage: FC<{
  nav: NonNullable<Nav>;
  workspaces: ListedWorkspace[];
  refused?: { at: string; errors: Errors };
}> = ({ nav, workspaces, refused }) => (
  <Layout title="Workspaces" nav={nav} current="/console/workspaces">
    <h1>Workspaces</h1>
    <p class="muted">
      Every member of a workspace acts on all of it: its accounts, posts and members. A post's times are shown
      in its workspace's timezone.
    </p>
    <h2>Your workspaces</h2>
    {workspaces.length === 0 ? (
      <p>No workspaces yet.</p>
    ) : (
      <ul>
        {workspaces.map((w) => (
          <WorkspaceCard
            workspace={w}
            csrf={nav.csrf}
            errors={refused?.at === `workspace-${w.id}` ? refused.errors : undefined}
          />
        ))}
      </ul>
    )}
    <h2 id="create">Create a workspace</h2>
    <FormErrors errors={refused?.at === "create" ? refused.errors : undefined} />
    <form method="post" action="/console/workspaces" aria-labelledby="create">
      <Hidden csrf={nav.csrf} />
      <label for="workspace-name">Name</label>
      <input type="text" id="workspace-name" name="name" required maxlength={255} />
      <label for="workspace-zone">Timezone (IANA, such as Europe/Paris)</label>
      <input type="text" id="workspace-zone" name="timezone" required value="UTC" maxlength={64} />
      <div class="actions">
        <button type="submit" class="primary">
          Create workspace
        </button>
      </div>
    </form>
  </Layout>
);
