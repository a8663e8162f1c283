// The console's pages, rendered on the server (hono/jsx). No script anywhere: every action is a form
// POST carrying the session's `csrf` field, so the pages work without JavaScript under a strict CSP.
import type { Child, FC } from "hono/jsx";
import { ABILITIES } from "../db/enums";

type Nav = { csrf: string; email: string } | null;

const Hidden: FC<{ csrf: string }> = ({ csrf }) => <input type="hidden" name="csrf" value={csrf} />;

export const Layout: FC<{ title: string; nav: Nav; children?: Child }> = ({ title, nav, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{`${title} · Console`}</title>
      <link rel="stylesheet" href="/console/assets/console.css" />
    </head>
    <body>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Social Publishing API</span>
        {nav && (
          <nav aria-label="Console">
            <ul>
              <li>
                <a href="/console/keys">Keys</a>
              </li>
              <li>
                <a href="/console/security">Security</a>
              </li>
              <li>
                <form method="post" action="/console/sign-out">
                  <input type="hidden" name="csrf" value={nav.csrf} />
                  <button type="submit" class="link-button">
                    Sign out
                  </button>
                </form>
              </li>
            </ul>
          </nav>
        )}
      </header>
      <main id="main">{children}</main>
    </body>
  </html>
);

/** Ways to sign in: a link by mail for now; passkeys will sit beside it. */
export const SignInPage: FC<{ sent?: boolean; error?: string }> = ({ sent, error }) => (
  <Layout title="Sign in" nav={null}>
    <h1>Sign in</h1>
    {sent ? (
      <p class="notice" role="status">
        Check your mail: if an account uses that address, a sign-in link is on its way. It works once, within
        15 minutes.
      </p>
    ) : (
      <section aria-labelledby="by-link">
        <h2 id="by-link">Sign in with a link</h2>
        <form method="post" action="/console/sign-in">
          <label for="email">Email address</label>
          <input
            type="email"
            id="email"
            name="email"
            required
            autocomplete="email"
            aria-describedby={error ? "email-error" : undefined}
          />
          {error && (
            <p class="error" id="email-error">
              {error}
            </p>
          )}
          <div class="actions">
            <button type="submit" class="primary">
              Email me a link
            </button>
          </div>
        </form>
      </section>
    )}
  </Layout>
);

/** What a link opens: a button, so that mail scanners that follow links do not use it up. */
export const ConfirmPage: FC<{ action: string; csrf?: string }> = ({ action, csrf }) => (
  <Layout title="Sign in" nav={null}>
    <h1>Sign in</h1>
    <p>Continue to sign in to the console in this browser.</p>
    <form method="post" action={action}>
      {csrf && <Hidden csrf={csrf} />}
      <button type="submit" class="primary">
        Sign in
      </button>
    </form>
  </Layout>
);

export const LinkUnusablePage: FC = () => (
  <Layout title="Link expired" nav={null}>
    <h1>This link cannot be used</h1>
    <p>It was already used or it has expired (links last 15 minutes and work once).</p>
    <p>
      <a href="/console/sign-in">Ask for a new link</a>
    </p>
  </Layout>
);

export type ListedKey = {
  id: number;
  name: string;
  prefix: string;
  abilities: string[];
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
  callback_origins: string[];
};

/** Something shown once (a new key, a signing secret), on the answer to the request that made it. */
export type Shown = { title: string; label: string; value: string };

const KeyCard: FC<{ keyRow: ListedKey; csrf: string }> = ({ keyRow: key, csrf }) => (
  <li class="card">
    <h3>{key.name}</h3>
    <dl>
      <dt>Prefix</dt>
      <dd>
        <code>{key.prefix}…</code>
      </dd>
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
  <Layout title="API keys" nav={nav}>
    <h1>API keys</h1>
    {shown && (
      <section class="notice" aria-labelledby="shown">
        <h2 id="shown">{shown.title}</h2>
        <p>Copy it now: it is shown on this page only and cannot be shown again.</p>
        <p>
          <label for="shown-value">{shown.label}</label>
          <output id="shown-value" class="secret">
            {shown.value}
          </output>
        </p>
      </section>
    )}
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
    {errors && (
      <div class="error" role="alert">
        {Object.values(errors)
          .flat()
          .map((message) => (
            <p>{message}</p>
          ))}
      </div>
    )}
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

export type ListedSession = { id: number; userAgent: string | null; createdAt: Date; lastUsedAt: Date };

export const SecurityPage: FC<{ nav: NonNullable<Nav>; sessions: ListedSession[]; currentId: number }> = ({
  nav,
  sessions,
  currentId,
}) => (
  <Layout title="Security" nav={nav}>
    <h1>Security</h1>
    <h2>Sessions</h2>
    <p class="muted">
      Signed in as {nav.email}. A session ends after 12 hours without use, or 30 days after sign-in.
    </p>
    <ul>
      {sessions.map((session) => (
        <li class="card">
          <h3>{session.id === currentId ? "This browser" : (session.userAgent ?? "Unknown browser")}</h3>
          <dl>
            <dt>Browser</dt>
            <dd>{session.userAgent ?? "unknown"}</dd>
            <dt>Signed in</dt>
            <dd>{session.createdAt.toISOString()}</dd>
            <dt>Last used</dt>
            <dd>{session.lastUsedAt.toISOString()}</dd>
          </dl>
          <form method="post" action={`/console/security/sessions/${session.id}/revoke`}>
            <Hidden csrf={nav.csrf} />
            <button type="submit">{session.id === currentId ? "Sign out here" : "Revoke"}</button>
          </form>
        </li>
      ))}
    </ul>
  </Layout>
);

/** A refusal (403, 404, 410, 429): what happened and a way back. */
export const RefusalPage: FC<{ message: string }> = ({ message }) => (
  <Layout title="Request refused" nav={null}>
    <h1>This request was refused</h1>
    <p>{message}</p>
    <p>
      <a href="/console">Back to the console</a>
    </p>
  </Layout>
);
