// The webhooks page: the user's endpoints (create, with the signing secret shown once; roll the secret;
// enable; delete) and an endpoint's deliveries (send a test, redeliver). Every rule is the REST API's
// own (src/webhooks/endpoints.ts, queries.ts, manual.ts), scoped to the signed-in user.
import type { FC } from "hono/jsx";
import type { Database } from "../db/client";
import { ApiError, notFound } from "../http/errors";
import { messagesByField } from "../http/messages";
import { DELIVERIES_LISTED, MAX_ENDPOINTS_PER_WORKSPACE, WEBHOOK_EVENT_TYPES } from "../webhooks/catalog";
import { createEndpoint, rollSecret } from "../webhooks/endpoints";
import { redeliver, sendTestEvent } from "../webhooks/manual";
import { presentDelivery, presentWebhook } from "../webhooks/present";
import {
  deleteEndpoint,
  deliveriesOfEndpoint,
  enableEndpoint,
  endpointsOfUser,
  endpointWithZone,
} from "../webhooks/queries";
import { createWebhookBody } from "../webhooks/schemas";
import { workspacesOfUser } from "../workspaces/queries";
import { FormErrors, Hidden, Layout, type Nav, type Shown, ShownOnce } from "./layout";
import { type Ctx, consoleRoutes, list, navOf, signedIn, tenantOf } from "./page-routes";
import { consoleActor } from "./security-log";
import type { Session } from "./sessions";

type Listed = ReturnType<typeof presentWebhook>;
type ListedDelivery = ReturnType<typeof presentDelivery>;

/** A path's id, or the 404 an unknown one gets (another user's id says nothing more). */
function idOf(value: string, what: string) {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(what);
  return id;
}

async function webhooksPage(
  c: Ctx,
  session: Session,
  db: Database,
  extra: { shown?: Shown; errors?: Record<string, string[]> } = {},
  status: 200 | 422 = 200,
) {
  const tenant = tenantOf(c, session);
  const [zones, rows, workspaces] = await db.batch([
    ...endpointsOfUser(db, tenant, undefined),
    workspacesOfUser(db, tenant),
  ]);
  const zoneOf = new Map(zones.map((w) => [w.id, w.timezone]));
  const endpoints = rows.map((row) => presentWebhook(row, zoneOf.get(row.workspaceId)!));
  const names = workspaces.map((w) => ({ id: w.id, name: w.name }));
  return c.html(
    <WebhooksPage nav={await navOf(c, session)} endpoints={endpoints} workspaces={names} {...extra} />,
    status,
  );
}

export const webhookRoutes = consoleRoutes()
  .get("/webhooks", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    return webhooksPage(c, auth.session, auth.db);
  })
  .post("/webhooks", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const form = c.var.form ?? {};
    const parsed = createWebhookBody.safeParse({
      workspace_id: Number(form.workspace_id),
      url: typeof form.url === "string" ? form.url : "",
      events: list(form.events),
    });
    const refused = (errors: Record<string, string[]>) =>
      webhooksPage(c, auth.session, auth.db, { errors }, 422);
    if (!parsed.success) return refused(messagesByField(parsed.error.issues, parsed.error));
    try {
      const created = await createEndpoint(c.env, auth.db, auth.tenant, parsed.data);
      return webhooksPage(c, auth.session, auth.db, {
        shown: {
          title: "Your new endpoint's signing secret",
          label: "Signing secret",
          value: created.secret,
        },
      });
    } catch (error) {
      // The URL rules and the cap answer a 422 with messages by field: the form again, with them.
      if (error instanceof ApiError && error.status === 422 && error.body.errors)
        return refused(error.body.errors);
      throw error;
    }
  })
  .post("/webhooks/:id/roll-secret", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    const rolled = await rollSecret(c.env, auth.db, auth.tenant, id, consoleActor(c, auth.session));
    return webhooksPage(c, auth.session, auth.db, {
      shown: { title: "Your endpoint's new signing secret", label: "Signing secret", value: rolled.secret },
    });
  })
  .post("/webhooks/:id/enable", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    if (!(await enableEndpoint(auth.db, auth.tenant, id))) throw notFound("Webhook");
    return c.redirect("/console/webhooks", 303);
  })
  .post("/webhooks/:id/delete", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    if ((await deleteEndpoint(auth.db, auth.tenant, id)).length === 0) throw notFound("Webhook");
    return c.redirect("/console/webhooks", 303);
  })
  .get("/webhooks/:id", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    const db = auth.db;
    const [[found], rows] = await db.batch([
      endpointWithZone(db, auth.tenant, id),
      deliveriesOfEndpoint(db, auth.tenant, id)[1],
    ]);
    if (!found) throw notFound("Webhook");
    return c.html(
      <DeliveriesPage
        nav={await navOf(c, auth.session)}
        endpoint={presentWebhook(found.endpoint, found.timezone)}
        deliveries={rows.map((row) => presentDelivery(row, found.timezone))}
      />,
    );
  })
  .post("/webhooks/:id/test", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    await sendTestEvent(c.env, auth.db, auth.tenant, id);
    return c.redirect(`/console/webhooks/${id}`, 303);
  })
  .post("/webhooks/:id/deliveries/:delivery/redeliver", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = idOf(c.req.param("id"), "Webhook");
    const delivery = idOf(c.req.param("delivery"), "Delivery");
    await redeliver(c.env, auth.db, auth.tenant, id, delivery);
    return c.redirect(`/console/webhooks/${id}`, 303);
  });

const Status: FC<{ endpoint: Listed }> = ({ endpoint }) =>
  endpoint.status === "enabled" ? (
    <>enabled</>
  ) : (
    <>
      disabled since {endpoint.disabled_at}
      {endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : ""}
    </>
  );

const EndpointCard: FC<{ endpoint: Listed; workspace: string; csrf: string }> = ({
  endpoint,
  workspace,
  csrf,
}) => (
  <li class="card">
    <h3>
      <a href={`/console/webhooks/${endpoint.id}`}>{endpoint.url}</a>
    </h3>
    <dl>
      <dt>Workspace</dt>
      <dd>{workspace}</dd>
      <dt>Events</dt>
      <dd>{endpoint.events.join(", ")}</dd>
      <dt>Status</dt>
      <dd>
        <Status endpoint={endpoint} />
      </dd>
      <dt>Created</dt>
      <dd>{endpoint.created_at}</dd>
    </dl>
    <div class="actions">
      {endpoint.status === "disabled" && (
        <form method="post" action={`/console/webhooks/${endpoint.id}/enable`}>
          <Hidden csrf={csrf} />
          <button type="submit" aria-label={`Enable ${endpoint.url}`}>
            Enable
          </button>
        </form>
      )}
      <form method="post" action={`/console/webhooks/${endpoint.id}/roll-secret`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`Roll secret of ${endpoint.url}`}>
          Roll secret
        </button>
      </form>
      <form method="post" action={`/console/webhooks/${endpoint.id}/delete`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`Delete ${endpoint.url}`}>
          Delete
        </button>
      </form>
    </div>
  </li>
);

export const WebhooksPage: FC<{
  nav: NonNullable<Nav>;
  endpoints: Listed[];
  workspaces: { id: number; name: string }[];
  shown?: Shown;
  errors?: Record<string, string[]>;
}> = ({ nav, endpoints, workspaces, shown, errors }) => {
  const names = new Map(workspaces.map((w) => [w.id, w.name]));
  return (
    <Layout title="Webhooks" nav={nav} current="/console/webhooks">
      <h1>Webhooks</h1>
      {shown && <ShownOnce shown={shown} />}
      <h2>Your endpoints</h2>
      <p class="muted">
        Each event is POSTed as signed JSON (Standard Webhooks). Open an endpoint for its deliveries, a test
        event and redelivery.
      </p>
      {endpoints.length === 0 ? (
        <p>No endpoints yet.</p>
      ) : (
        <ul>
          {endpoints.map((endpoint) => (
            <EndpointCard
              endpoint={endpoint}
              workspace={names.get(endpoint.workspace_id) ?? String(endpoint.workspace_id)}
              csrf={nav.csrf}
            />
          ))}
        </ul>
      )}
      <h2 id="create">Add an endpoint</h2>
      <FormErrors errors={errors} />
      {workspaces.length === 0 ? (
        <p>An endpoint belongs to a workspace: create one first.</p>
      ) : (
        <form method="post" action="/console/webhooks" aria-labelledby="create">
          <Hidden csrf={nav.csrf} />
          <label for="hook-workspace">Workspace</label>
          <select id="hook-workspace" name="workspace_id">
            {workspaces.map((w) => (
              <option value={String(w.id)}>{w.name}</option>
            ))}
          </select>
          <label for="hook-url">
            URL (https on a public address; at most {MAX_ENDPOINTS_PER_WORKSPACE} per workspace)
          </label>
          <input type="url" id="hook-url" name="url" required maxlength={2048} />
          <fieldset>
            <legend>Events</legend>
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label>
                <input type="checkbox" name="events" value={type} /> {type}
              </label>
            ))}
          </fieldset>
          <div class="actions">
            <button type="submit" class="primary">
              Add endpoint
            </button>
          </div>
        </form>
      )}
    </Layout>
  );
};

const lastStatus = (delivery: ListedDelivery) => {
  const last = delivery.attempts.at(-1);
  return last ? (last.response_status ?? last.error_code ?? "no answer") : "not attempted yet";
};

export const DeliveriesPage: FC<{
  nav: NonNullable<Nav>;
  endpoint: Listed;
  deliveries: ListedDelivery[];
}> = ({ nav, endpoint, deliveries }) => (
  <Layout title="Webhook deliveries" nav={nav} current="/console/webhooks">
    <p>
      <a href="/console/webhooks">All endpoints</a>
    </p>
    <h1>Deliveries</h1>
    <p>
      <code>{endpoint.url}</code>
    </p>
    <p>
      Status: <Status endpoint={endpoint} />
    </p>
    <form method="post" action={`/console/webhooks/${endpoint.id}/test`}>
      <Hidden csrf={nav.csrf} />
      <button type="submit">Send a test event</button>
    </form>
    <h2>Recent deliveries</h2>
    <p class="muted">The last {DELIVERIES_LISTED}, newest first; deliveries are kept 30 days.</p>
    {deliveries.length === 0 ? (
      <p>No deliveries yet.</p>
    ) : (
      <ul>
        {deliveries.map((delivery) => (
          <li class="card">
            <h3>
              {delivery.event_type} <span class="muted">#{delivery.id}</span>
            </h3>
            <dl>
              <dt>Status</dt>
              <dd>{delivery.status}</dd>
              <dt>Attempts</dt>
              <dd>{delivery.attempts.length}</dd>
              <dt>Last answer</dt>
              <dd>{lastStatus(delivery)}</dd>
              <dt>Time</dt>
              <dd>{delivery.updated_at}</dd>
              {delivery.next_attempt_at && (
                <>
                  <dt>Next attempt</dt>
                  <dd>{delivery.next_attempt_at}</dd>
                </>
              )}
            </dl>
            {delivery.status !== "pending" && (
              <form
                method="post"
                action={`/console/webhooks/${endpoint.id}/deliveries/${delivery.id}/redeliver`}
              >
                <Hidden csrf={nav.csrf} />
                <button type="submit" aria-label={`Redeliver delivery ${delivery.id}`}>
                  Redeliver
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
    )}
  </Layout>
);
