// The accounts page: each workspace's connected accounts with their health, and connect, reconnect and
// disconnect. Connecting runs the one OAuth flow of POST /api/v1/accounts/connect (src/accounts/
// actions.ts), started by the console session, and brings the browser back here with its result.
import type { FC } from "hono/jsx";
import { z } from "zod";
import { disconnect, type FlowStart, startConnect, startReconnect } from "../accounts/actions";
import { accountsOfUser, disconnectedAccountsOfUser } from "../accounts/queries";
import type { Database } from "../db/client";
import { PLATFORMS, type Platform } from "../db/enums";
import type { Account } from "../db/schema";
import { publicOrigin } from "../lib/origin";
import { toZonedIso } from "../lib/time";
import { platformLabel } from "../oauth/label";
import { CONSOLE_RETURN_PATH, consoleStarter } from "../oauth/start";
import { lookupAdapter } from "../platforms/index";
import { workspacesOfUser } from "../workspaces/queries";
import { FormErrors, Hidden, Layout, type Nav } from "./layout";
import { type Ctx, consoleMode, consoleRoutes, navOf, signedIn, tenantOf } from "./page-routes";
import type { Session } from "./sessions";
import { fieldErrors, pathId } from "./workspaces";

/** A flow started by this console session, bringing the browser back to the accounts page. */
const flowStart = (c: Ctx, session: Session): FlowStart => {
  const origin = publicOrigin(c.env, c.req.url);
  return {
    env: c.env,
    metered: (work) => c.var.meter.gate(work),
    origin,
    tenant: tenantOf(c, session),
    starter: consoleStarter(session.id),
    callbackUrl: `${origin}${CONSOLE_RETURN_PATH}`,
  };
};

/** The platforms this service can connect (configured, or emulated under SANDBOX). */
const connectable = (c: Ctx) => {
  const origin = publicOrigin(c.env, c.req.url);
  return PLATFORMS.filter((p) => lookupAdapter(c.env, p, origin, consoleMode(c)).kind === "ok");
};

const connectForm = z.object({
  workspace_id: z.coerce.number({ error: "Choose a workspace." }).int().positive(),
  platform: z.enum(PLATFORMS, { error: "Choose a platform." }),
});

/**
 * What the flow's return says, in the page's own words: the parameters come from a URL anyone could
 * craft, so only the known codes are read and no text of the URL is shown.
 */
const RESULTS: Record<string, string> = {
  access_denied: "The connection was declined on the platform's page; nothing was stored.",
  connection_failed:
    "The connection did not complete and nothing was stored: the platform failed, it took more than 15 minutes, it was finished in another browser or after signing out, or a reconnect signed in as another account than the one being reconnected. Try again.",
  expired_request: "This connection link was already used or has expired. Start again from this page.",
};

type Result = { ok: boolean; message: string };

function resultOf(c: Ctx, accounts: Account[]): Result | undefined {
  const error = c.req.query("error");
  if (error) return { ok: false, message: RESULTS[error] ?? RESULTS.connection_failed! };
  if (c.req.query("status") !== "connected") return undefined;
  const account = accounts.find((a) => String(a.id) === c.req.query("account_id"));
  return account
    ? { ok: true, message: `Connected: ${account.name} (${platformLabel(account.platform)}).` }
    : undefined;
}

export type ListedAccount = {
  id: number;
  platform: string;
  name: string;
  username: string;
  status: "Active" | "Expired: reconnect it";
  tokenExpiresAt: string | null;
  lastError: string | null;
};

export type AccountsOfWorkspace = {
  id: number;
  name: string;
  accounts: ListedAccount[];
  disconnected: { id: number; platform: Platform; name: string; username: string }[];
};

async function page(c: Ctx, session: Session, db: Database, errors?: Record<string, string[]>) {
  const tenant = tenantOf(c, session);
  const [workspaces, rows, gone] = await db.batch([
    workspacesOfUser(db, tenant),
    accountsOfUser(db, tenant),
    disconnectedAccountsOfUser(db, tenant),
  ]);
  const byWorkspace = Map.groupBy(rows, (a) => a.workspaceId);
  const goneByWorkspace = Map.groupBy(gone, (a) => a.workspaceId);
  const listed: AccountsOfWorkspace[] = workspaces.map((w) => ({
    id: w.id,
    name: w.name,
    accounts: (byWorkspace.get(w.id) ?? []).map((a) => ({
      id: a.id,
      platform: platformLabel(a.platform),
      name: a.name,
      username: a.username,
      // presentHealth's rule: expired once the platform refused the grant for good.
      status: a.expiredAt !== null ? "Expired: reconnect it" : "Active",
      tokenExpiresAt: a.tokenExpiresAt && toZonedIso(a.tokenExpiresAt, w.timezone),
      lastError: a.lastError?.message ?? null,
    })),
    disconnected: goneByWorkspace.get(w.id) ?? [],
  }));
  return c.html(
    <AccountsPage
      nav={await navOf(c, session)}
      workspaces={listed}
      platforms={connectable(c)}
      result={resultOf(c, rows)}
      errors={errors}
    />,
    errors ? 422 : 200,
  );
}

export const accountRoutes = consoleRoutes()
  .get("/accounts", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    return page(c, auth.session, auth.db);
  })
  .post("/accounts/connect", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const form = c.var.form ?? {};
    const parsed = connectForm.safeParse({ workspace_id: form.workspace_id, platform: form.platform });
    if (!parsed.success)
      return page(c, auth.session, auth.db, { connect: parsed.error.issues.map((i) => i.message) });
    let link: Awaited<ReturnType<typeof startConnect>>;
    try {
      link = await startConnect(
        auth.db,
        flowStart(c, auth.session),
        parsed.data.workspace_id,
        parsed.data.platform,
      );
    } catch (error) {
      return page(c, auth.session, auth.db, fieldErrors(error));
    }
    return c.html(
      <ContinuePage
        nav={await navOf(c, auth.session)}
        link={link.authorize_url}
        platform={parsed.data.platform}
      />,
    );
  })
  .post("/accounts/:id/reconnect", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = pathId(c.req.param("id"), "Account");
    const { link, platform } = await startReconnect(auth.db, flowStart(c, auth.session), id);
    return c.html(
      <ContinuePage nav={await navOf(c, auth.session)} link={link.authorize_url} platform={platform} />,
    );
  })
  .post("/accounts/:id/disconnect", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = pathId(c.req.param("id"), "Account");
    await disconnect(c.env, auth.db, auth.tenant, id, (work) => c.executionCtx.waitUntil(work));
    return c.redirect("/console/accounts", 303);
  });

/**
 * The step between the form and the platform: a link, not a redirect. A browser checks every redirect
 * of a form's answer against the page's `form-action 'self'`, so the platform's consent page (another
 * origin) can only be reached by following a link.
 */
const ContinuePage: FC<{ nav: NonNullable<Nav>; link: string; platform: string }> = ({
  nav,
  link,
  platform,
}) => (
  <Layout title="Connect an account" nav={nav} current="/console/accounts">
    <h1>{`Connect ${platformLabel(platform)}`}</h1>
    <p>
      The platform asks you to sign in and to allow this service to publish for the account. Then you come
      back to this console. The link works once, for 15 minutes.
    </p>
    <p>
      <a href={link} class="button primary">
        {`Continue to ${platformLabel(platform)}`}
      </a>
    </p>
    <p>
      <a href="/console/accounts">Cancel</a>
    </p>
  </Layout>
);

const AccountCard: FC<{ account: ListedAccount; csrf: string }> = ({ account: a, csrf }) => {
  const named = `${a.name} (${a.platform})`;
  return (
    <li class="card">
      <h3>{named}</h3>
      <dl>
        <dt>Handle</dt>
        <dd>{a.username}</dd>
        <dt>Status</dt>
        <dd class={a.status === "Active" ? undefined : "error"}>{a.status}</dd>
        <dt>Token expires</dt>
        <dd>{a.tokenExpiresAt ?? "not set"}</dd>
        <dt>Last error</dt>
        <dd>{a.lastError ?? "none"}</dd>
      </dl>
      <div class="actions">
        <form method="post" action={`/console/accounts/${a.id}/reconnect`}>
          <Hidden csrf={csrf} />
          <button type="submit" aria-label={`Reconnect ${named}`}>
            Reconnect
          </button>
        </form>
        <form method="post" action={`/console/accounts/${a.id}/disconnect`}>
          <Hidden csrf={csrf} />
          <button type="submit" aria-label={`Disconnect ${named}`}>
            Disconnect
          </button>
        </form>
      </div>
    </li>
  );
};

export const AccountsPage: FC<{
  nav: NonNullable<Nav>;
  workspaces: AccountsOfWorkspace[];
  platforms: Platform[];
  result?: Result;
  errors?: Record<string, string[]>;
}> = ({ nav, workspaces, platforms, result, errors }) => (
  <Layout title="Accounts" nav={nav} current="/console/accounts">
    <h1>Accounts</h1>
    {result && (
      <p class={result.ok ? "notice" : "error"} role="status">
        {result.message}
      </p>
    )}
    {workspaces.length === 0 && (
      <p>
        Accounts are connected to a workspace: <a href="/console/workspaces">create one first</a>.
      </p>
    )}
    {workspaces.map((w) => (
      <section aria-labelledby={`ws-${w.id}`}>
        <h2 id={`ws-${w.id}`}>{w.name}</h2>
        {w.accounts.length === 0 ? (
          <p>No connected accounts.</p>
        ) : (
          <ul>
            {w.accounts.map((a) => (
              <AccountCard account={a} csrf={nav.csrf} />
            ))}
          </ul>
        )}
        {w.disconnected.length > 0 && (
          <details>
            <summary>{`Disconnected (${w.disconnected.length})`}</summary>
            <ul>
              {w.disconnected.map((a) => (
                <li>
                  <form method="post" action="/console/accounts/connect" class="inline">
                    <Hidden csrf={nav.csrf} />
                    <input type="hidden" name="workspace_id" value={String(w.id)} />
                    <input type="hidden" name="platform" value={a.platform} />
                    {`${a.name} (${platformLabel(a.platform)}, ${a.username}) `}
                    <button
                      type="submit"
                      class="link-button"
                      aria-label={`Connect again: ${a.name} (${platformLabel(a.platform)})`}
                    >
                      Connect again
                    </button>
                  </form>
                </li>
              ))}
            </ul>
          </details>
        )}
      </section>
    ))}
    {workspaces.length > 0 && (
      <>
        <h2 id="connect">Connect an account</h2>
        <FormErrors errors={errors} />
        <form method="post" action="/console/accounts/connect" aria-labelledby="connect">
          <Hidden csrf={nav.csrf} />
          <label for="connect-workspace">Workspace</label>
          <select id="connect-workspace" name="workspace_id" required>
            {workspaces.map((w) => (
              <option value={String(w.id)}>{w.name}</option>
            ))}
          </select>
          <label for="connect-platform">Platform</label>
          <select id="connect-platform" name="platform" required>
            {platforms.map((p) => (
              <option value={p}>{platformLabel(p)}</option>
            ))}
          </select>
          <div class="actions">
            <button type="submit" class="primary">
              Connect
            </button>
          </div>
        </form>
      </>
    )}
  </Layout>
);
