// The passkey parts of the sign-in and security pages. The ceremonies need the browser's WebAuthn API,
// so their forms (`data-passkey`) sit in sections hidden until /console/assets/passkey.js shows them:
// without script a page shows only what works without it (the link form, the list of passkeys).
import type { FC } from "hono/jsx";
import { Hidden } from "./layout";
import { type ListedPasskey, PASSKEY_NAME_MAX } from "./passkeys";

export const PASSKEY_SCRIPT = "/console/assets/passkey.js";

const Script: FC = () => <script src={PASSKEY_SCRIPT} defer />;

/** The sign-in page's first way in: no email asked, the browser offers the user's passkeys. */
export const PasskeySignIn: FC = () => (
  <section aria-labelledby="by-passkey" hidden>
    <h2 id="by-passkey">Sign in with a passkey</h2>
    <form
      data-passkey="sign-in"
      data-options="/console/passkeys/sign-in/options"
      data-verify="/console/passkeys/sign-in/verify"
      data-unusable="This browser cannot use passkeys here: sign in with a link below."
    >
      <button type="submit" class="primary">
        Sign in with a passkey
      </button>
    </form>
    <p role="status" data-passkey-status />
    <Script />
  </section>
);

const when = (date: Date | null) => (date ? date.toISOString() : "never");

/** The security page's passkeys: each renamable and removable, and a button to add one. */
export const PasskeysSection: FC<{ csrf: string; passkeys: ListedPasskey[] }> = ({ csrf, passkeys }) => (
  <>
    <h2 id="passkeys">Passkeys</h2>
    <p class="muted">
      Sign in with your device's screen lock or a security key, without waiting for a link. Sign-in links keep
      working.
    </p>
    {passkeys.length === 0 && <p>No passkeys yet.</p>}
    <ul>
      {passkeys.map((key) => (
        <li class="card">
          <h3>{key.name}</h3>
          <dl>
            <dt>Added</dt>
            <dd>{key.createdAt.toISOString()}</dd>
            <dt>Last used</dt>
            <dd>{when(key.lastUsedAt)}</dd>
          </dl>
          <form method="post" action={`/console/security/passkeys/${key.id}/rename`}>
            <Hidden csrf={csrf} />
            <label for={`passkey-name-${key.id}`}>Name</label>
            <input
              type="text"
              id={`passkey-name-${key.id}`}
              name="name"
              value={key.name}
              required
              maxlength={PASSKEY_NAME_MAX}
            />
            <div class="actions">
              <button type="submit" aria-label={`Rename passkey ${key.name}`}>
                Rename
              </button>
            </div>
          </form>
          <form method="post" action={`/console/security/passkeys/${key.id}/remove`} class="actions">
            <Hidden csrf={csrf} />
            <button type="submit" aria-label={`Remove passkey ${key.name}`}>
              Remove
            </button>
          </form>
        </li>
      ))}
    </ul>
    <section aria-labelledby="add-passkey" hidden>
      <h3 id="add-passkey">Add a passkey</h3>
      <form
        data-passkey="register"
        data-options="/console/passkeys/register/options"
        data-verify="/console/passkeys/register/verify"
        data-unusable="This browser cannot add passkeys here: keep signing in with a link."
      >
        <Hidden csrf={csrf} />
        <button type="submit" class="primary">
          Add a passkey
        </button>
      </form>
      <p role="status" data-passkey-status />
    </section>
    <noscript>
      <p>Adding a passkey needs JavaScript.</p>
    </noscript>
    <Script />
  </>
);
