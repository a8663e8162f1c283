// The API keys page: the user's keys, create (shown once), roll, revoke, signing secret, callback
// origins. Key rules are the operator API's own (src/admin/key-queries.ts), scoped to the signed-in user.
import { and, eq } from "drizzle-orm";
import type { FC } from "hono/jsx";
import { z } from "zod";
import {
  type Announce,
  announceKeyChange,
  issueKey,
  issueSigningSecret,
  keysOfUser,
  revokeKey,
  rollKey,
  setCallbackOrigins,
} from "../admin/key-queries";
import { presentApiKey } from "../admin/present";
import { createApiKeyBody } from "../admin/schemas";
import { keyUsesOfUser } from "../coordinator/names";
import type { Database } from "../db/client";
import { ABILITIES } from "../db/enums";
import { apiKeys } from "../db/schema";
import { notFound } from "../http/errors";
import { messagesByField } from "../http/messages";
import { FormErrors, Hidden, Layout, type Nav, type Shown, ShownOnce } from "./layout";
import { type Ctx, consoleRoutes, list, navOf, signedIn } from "./page-routes";
import { consoleActor } from "./security-log";
import type { Session } from "./sessions";

const announcer =
  (c: Ctx): Announce =>
  (key, revoked) =>
    c.var.meter.gate(() => announceKeyChange(c.env, key, revoked));

/** The user's keys as listed, with their last uses. */
async function listedKeys(c: Ctx, db: Database, userId: number) {
  const [, keys] = await db.batch(keysOfUser(db, userId));
  const uses: Record<number, number> =
    keys.length === 0 ? {} : await c.var.meter.gate(() => keyUsesOfUser(c.env, userId));
  return keys.map((key) => presentApiKey(key, uses[key.id]));
}

async function keysPage(
  c: Ctx,
  session: Session,
  db: Database,
  extra: { shown?: Shown; errors?: Record<string, string[]> } = {},
  status: 200 | 422 = 200,
) {
  const keys = await listedKeys(c, db, session.userId);
  return c.html(<KeysPage nav={await navOf(c, session)} keys={keys} {...extra} />, status);
}

/** 404 unless the key is the signed-in user's (an id of another user's key says nothing). */
async function ownKey(db: Database, userId: number, keyId: string) {
  const id = Number(keyId);
  const found =
    Number.isSafeInteger(id) &&
    (await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .get());
  if (!found) throw notFound("API key");
  return id;
}

/** The create form: the operator API's key rules, from form fields. `expires_at` is a UTC datetime-local. */
const keyForm = z.object({
  name: createApiKeyBody.shape.name,
  abilities: createApiKeyBody.shape.abilities,
  mode: createApiKeyBody.shape.mode,
  expires_at: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      const date = new Date(`${value}${/[zZ]|[+-]\d\d:\d\d$/.test(value) ? "" : "Z"}`);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: "custom", message: "The expiry must be a date and time." });
        return z.NEVER;
      }
      return date;
    }),
});

export const keyRoutes = consoleRoutes()
  .get("/keys", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    return keysPage(c, auth.session, auth.db);
  })
  .post("/keys", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const form = c.var.form ?? {};
    const parsed = keyForm.safeParse({
      name: form.name,
      abilities: list(form.abilities),
      mode: typeof form.mode === "string" && form.mode !== "" ? form.mode : undefined,
      expires_at: typeof form.expires_at === "string" ? form.expires_at : undefined,
    });
    if (!parsed.success)
      return keysPage(
        c,
        auth.session,
        auth.db,
        { errors: messagesByField(parsed.error.issues, parsed.error) },
        422,
      );
    const issued = await issueKey(
      auth.db,
      {
        user_id: auth.session.userId,
        callback_origins: [],
        ...parsed.data,
      },
      consoleActor(c, auth.session),
    );
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your new key", label: "API key", value: issued.key },
    });
  })
  .post("/keys/:id/roll", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const rolled = await rollKey(auth.db, announcer(c), id, consoleActor(c, auth.session));
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your rolled key", label: "API key", value: rolled.key },
    });
  })
  .post("/keys/:id/revoke", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    await revokeKey(auth.db, announcer(c), id, consoleActor(c, auth.session));
    return c.redirect("/console/keys", 303);
  })
  .post("/keys/:id/signing-secret", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const secret = await issueSigningSecret(
      auth.db,
      announcer(c),
      c.env.ENCRYPTION_KEY,
      id,
      consoleActor(c, auth.session),
    );
    return keysPage(c, auth.session, auth.db, {
      shown: { title: "Your new signing secret", label: "Signing secret", value: secret },
    });
  })
  .post("/keys/:id/callback-origins", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const id = await ownKey(auth.db, auth.session.userId, c.req.param("id"));
    const lines = String(c.var.form?.callback_origins ?? "")
      .split(/\s+/)
      .filter(Boolean);
    const parsed = createApiKeyBody.shape.callback_origins.safeParse(lines);
    if (!parsed.success)
      return keysPage(
        c,
        auth.session,
        auth.db,
        { errors: messagesByField(parsed.error.issues, parsed.error) },
        422,
      );
    await setCallbackOrigins(auth.db, announcer(c), id, parsed.data, consoleActor(c, auth.session));
    return c.redirect("/console/keys", 303);
  });

export type ListedKey = {
  id: number;
  name: string;
  prefix: string;
  abilities: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  callback_origins: string[];
  mode: string;
};

const KeyCard: FC<{ keyRow: ListedKey; csrf: string }> = ({ keyRow: key, csrf }) => (
  <li class="card">
    <h3>{key.name}</h3>
    <dl>
      <dt>Prefix</dt>
      <dd>
        <code>{key.prefix}…</code>
      </dd>
      <dt>Mode</dt>
      <dd>{key.mode}</dd>
      <dt>Abilities</dt>
      <dd>{key.abilities.length ? key.abilities.join(", ") : "none"}</dd>
      <dt>Last used</dt>
      <dd>{key.last_used_at ?? "never"}</dd>
      <dt>Expires</dt>
      <dd>{key.expires_at ?? "never"}</dd>
      <dt>Callback origins</dt>
      <dd>{key.callback_origins.length ? key.callback_origins.join(", ") : "any https origin"}</dd>
    </dl>
    <div class="actions">
      <form method="post" action={`/console/keys/${key.id}/roll`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`Roll ${key.name}`}>
          Roll
        </button>
      </form>
      <form method="post" action={`/console/keys/${key.id}/signing-secret`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`New signing secret for ${key.name}`}>
          New signing secret
        </button>
      </form>
      <form method="post" action={`/console/keys/${key.id}/revoke`}>
        <Hidden csrf={csrf} />
        <button type="submit" aria-label={`Revoke ${key.name}`}>
          Revoke
        </button>
      </form>
    </div>
    <details>
      <summary>Callback origins</summary>
      <form method="post" action={`/console/keys/${key.id}/callback-origins`}>
        <Hidden csrf={csrf} />
        <label for={`origins-${key.id}`}>One origin per line (empty: any https origin)</label>
        <textarea id={`origins-${key.id}`} name="callback_origins" rows={3}>
          {key.callback_origins.join("\n")}
        </textarea>
        <div class="actions">
          <button type="submit">Save origins</button>
        </div>
      </form>
    </details>
  </li>
);

export const KeysPage: FC<{
  nav: NonNullable<Nav>;
  keys: ListedKey[];
  shown?: Shown;
  errors?: Record<string, string[]>;
}> = ({ nav, keys, shown, errors }) => (
  <Layout title="API keys" nav={nav} current="/console/keys">
    <h1>API keys</h1>
    {shown && <ShownOnce shown={shown} />}
    <h2>Your keys</h2>
    {keys.length === 0 ? (
      <p>No keys yet.</p>
    ) : (
      <ul>
        {keys.map((key) => (
          <KeyCard keyRow={key} csrf={nav.csrf} />
        ))}
      </ul>
    )}
    <h2 id="create">Create a key</h2>
    <FormErrors errors={errors} />
    <form method="post" action="/console/keys" aria-labelledby="create">
      <Hidden csrf={nav.csrf} />
      <label for="key-name">Name</label>
      <input type="text" id="key-name" name="name" required maxlength={255} />
      <fieldset>
        <legend>Abilities</legend>
        {ABILITIES.map((ability) => (
          <label>
            <input type="checkbox" name="abilities" value={ability} /> {ability}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Mode</legend>
        <label>
          <input type="radio" name="mode" value="live" checked /> live: your real accounts
        </label>
        <label>
          <input type="radio" name="mode" value="test" /> test: the platforms' emulators only
        </label>
      </fieldset>
      <label for="key-expires">Expires (UTC, optional)</label>
      <input type="datetime-local" id="key-expires" name="expires_at" />
      <div class="actions">
        <button type="submit" class="primary">
          Create key
        </button>
      </div>
    </form>
  </Layout>
);
