// Passkeys in a real browser: Chromium's virtual authenticator (WebAuthn through the DevTools protocol:
// CTAP2, internal, resident keys, user verification) adds a passkey on the security page of a user
// signed in by link, then, signed out, signs in with it from the sign-in page without typing an email.
// The console runs at http://localhost: a WebAuthn rp id is a host name, never an IP address.
import assert from "node:assert/strict";
import { test } from "node:test";
import { consolePage, violations, widerThanViewport } from "./console-support.mjs";
import { adminCall, startWorker } from "./worker.mjs";

test("the console: add a passkey, sign out, sign in with it", { timeout: 240_000 }, async (t) => {
  const cleanup = [];
  t.after(async () => {
    for (const undo of cleanup.reverse()) await undo();
  });
  // No PUBLIC_BASE_URL: the console takes the request's origin, http://localhost:<port>, and its host
  // name is the rp id.
  const loopback = await startWorker(cleanup, { vars: { PUBLIC_BASE_URL: "" } });
  const base = loopback.replace("127.0.0.1", "localhost");
  const user = await adminCall(loopback, "POST", "/users", {
    name: "Passkey User",
    email: "passkey-e2e@example.test",
  });
  const { url } = await adminCall(loopback, "POST", `/users/${user.id}/sign-in-links`);

  const { context, page, problems } = await consolePage(cleanup, base);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(new URL(new URL(url).pathname, base).href);
  await Promise.all([
    page.waitForURL(`${base}/console/keys`),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);

  // The security page: no passkey yet; the script shows the add button; the authenticator makes one.
  const security = await page.goto(`${base}/console/security`);
  assert.match(security.headers()["content-security-policy"], /script-src 'self'/);
  assert.equal(await page.getByText("No passkeys yet.").count(), 1);
  assert.deepEqual(await violations(page), []);
  await page.getByRole("button", { name: "Add a passkey" }).click();
  await page.getByRole("heading", { level: 3, name: "Chrome on Linux" }).waitFor();
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(await widerThanViewport(page), [], "the page scrolls sideways at 390 px");

  // Signed out, the sign-in page offers the passkey first; no email is typed.
  await Promise.all([
    page.waitForURL(`${base}/console/sign-in`),
    page.getByRole("button", { name: "Sign out", exact: true }).click(),
  ]);
  const passkeyButton = page.getByRole("button", { name: "Sign in with a passkey" });
  await passkeyButton.waitFor();
  assert.deepEqual(await violations(page), []);
  await Promise.all([page.waitForURL(`${base}/console/keys`), passkeyButton.click()]);
  assert.equal(await page.getByRole("heading", { level: 1 }).innerText(), "API keys");

  await page.goto(`${base}/console/security`);
  assert.equal(await page.getByText("never").count(), 0, "the passkey's last use is recorded");
  assert.deepEqual(problems, []);
});
