// Passkey routes. The ceremonies (/console/passkeys/…) are JSON endpoints the page's script posts form
// fields to, so the console's guard checks them like every form (Origin; the csrf field when signed in);
// their refusals answer JSON the script shows. Renaming and removing are plain forms of the security page.
import { ApiError, invalidField, notFound, renderError } from "../http/errors";
import { consoleRoutes, refuseOverLimit, signedIn, startSession } from "./page-routes";
import {
  PASSKEY_NAME_MAX,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
  signInOptions,
  verifyPasskeySignIn,
} from "./passkeys";

export const passkeyCeremonyRoutes = consoleRoutes()
  // Each request of a sign-in counts against the client's per-IP limit: options write a challenge row,
  // and a verify checks a signature.
  .post("/passkeys/sign-in/options", async (c) => {
    await refuseOverLimit(c);
    return c.json(await signInOptions(c.var.shards, relyingParty(c.env, c.req.url)));
  })
  .post("/passkeys/sign-in/verify", async (c) => {
    await refuseOverLimit(c);
    const { userId, shard } = await verifyPasskeySignIn(
      c.var.shards,
      relyingParty(c.env, c.req.url),
      c.var.form?.response,
    );
    await startSession(c, shard, userId);
    return c.json({ redirect: "/console/keys" });
  })
  .post("/passkeys/register/options", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) throw signedOut();
    const { userId: id, email, name } = auth.session;
    return c.json(await registrationOptions(auth.db, relyingParty(c.env, c.req.url), { id, email, name }));
  })
  .post("/passkeys/register/verify", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) throw signedOut();
    const rp = relyingParty(c.env, c.req.url);
    await registerPasskey(auth.db, rp, auth.session.userId, c.var.form?.response, c.req.header("user-agent"));
    return c.json({ redirect: "/console/security" });
  });

const signedOut = () => new ApiError(401, { message: "Sign in again, then add the passkey." });

// The script reads these: a refusal's message and status, never a page.
passkeyCeremonyRoutes.onError((err, c) => {
  if (err instanceof ApiError && err.status < 500) {
    for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
    return c.json({ message: err.body.message }, err.status);
  }
  return renderError(err, c);
});

const passkeyId = (param: string) => {
  const id = Number(param);
  if (!Number.isSafeInteger(id)) throw notFound("Passkey");
  return id;
};

export const passkeyPageRoutes = consoleRoutes()
  .post("/security/passkeys/:id/remove", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    if (!(await removePasskey(auth.db, auth.session.userId, passkeyId(c.req.param("id")))))
      throw notFound("Passkey");
    return c.redirect("/console/security#passkeys", 303);
  })
  .post("/security/passkeys/:id/rename", async (c) => {
    const auth = signedIn(c);
    if (auth instanceof Response) return auth;
    const name = String(c.var.form?.name ?? "").trim();
    if (name === "" || name.length > PASSKEY_NAME_MAX)
      throw invalidField("name", `A passkey's name is 1 to ${PASSKEY_NAME_MAX} characters.`);
    if (!(await renamePasskey(auth.db, auth.session.userId, passkeyId(c.req.param("id")), name)))
      throw notFound("Passkey");
    return c.redirect("/console/security#passkeys", 303);
  });
