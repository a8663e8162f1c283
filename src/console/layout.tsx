// The console's frame and the pieces every page shares, rendered on the server (hono/jsx). No script:
// every action is a form POST carrying the session's `csrf` field, so pages work under a strict CSP.
import type { Child, FC } from "hono/jsx";

export type Nav = { csrf: string; email: string; mode: "live" | "test" } | null;

/** The console's pages, in the nav's order. */
const NAV_PAGES = [
  ["/console/keys", "Keys"],
  ["/console/workspaces", "Workspaces"],
  ["/console/accounts", "Accounts"],
  ["/console/posts", "Posts"],
  ["/console/comments", "Comments"],
  ["/console/webhooks", "Webhooks"],
  ["/console/security", "Security"],
] as const;

export const Hidden: FC<{ csrf: string }> = ({ csrf }) => <input type="hidden" name="csrf" value={csrf} />;

export const Layout: FC<{ title: string; nav: Nav; current?: string; children?: Child }> = ({
  title,
  nav,
  current,
  children,
}) => (
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
              {NAV_PAGES.map(([href, label]) => (
                <li>
                  <a href={href} aria-current={current === href ? "page" : undefined}>
                    {label}
                  </a>
                </li>
              ))}
              <li>
                <form method="post" action="/console/mode">
                  <input type="hidden" name="csrf" value={nav.csrf} />
                  <input type="hidden" name="mode" value={nav.mode === "test" ? "live" : "test"} />
                  <button type="submit" class="link-button">
                    {nav.mode === "test" ? "Test data: switch to live" : "Live data: switch to test"}
                  </button>
                </form>
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

/** Something shown once (a new key, a signing secret), on the answer to the request that made it. */
export type Shown = { title: string; label: string; value: string };

export const ShownOnce: FC<{ shown: Shown }> = ({ shown }) => (
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
);

/** The workspace and account choices of a list's filter form (posts, comments). */
export const ScopeSelects: FC<{
  scope: {
    workspaces: { id: number; name: string }[];
    accounts: { id: number; platform: string; username: string }[];
  };
  query: Record<string, string>;
}> = ({ scope, query }) => (
  <>
    <label for="f-workspace">Workspace</label>
    <select id="f-workspace" name="workspace_id">
      <option value="">Any</option>
      {scope.workspaces.map((w) => (
        <option value={String(w.id)} selected={query.workspace_id === String(w.id)}>
          {w.name}
        </option>
      ))}
    </select>
    <label for="f-account">Account</label>
    <select id="f-account" name="account_id">
      <option value="">Any</option>
      {scope.accounts.map((a) => (
        <option value={String(a.id)} selected={query.account_id === String(a.id)}>
          {a.platform} @{a.username}
        </option>
      ))}
    </select>
  </>
);

/** A refused form's messages, announced to screen readers. */
export const FormErrors: FC<{ errors?: Record<string, string[]> }> = ({ errors }) =>
  errors ? (
    <div class="error" role="alert">
      {Object.values(errors)
        .flat()
        .map((message) => (
          <p>{message}</p>
        ))}
    </div>
  ) : null;

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
