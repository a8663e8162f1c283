// Sending a sign-in link. With MAIL_PROVIDER_URL set, one POST of `{from, to, subject, text}` with
// `Authorization: Bearer MAIL_PROVIDER_KEY` (the shape of Resend's and similar HTTP mail APIs). Without
// it, local development (SANDBOX=true) prints the link in the worker's log; anywhere else the link is
// dropped with a warning that names no token, so a misconfigured deployment never logs credentials.
type MailEnv = Pick<Env, "MAIL_PROVIDER_URL" | "MAIL_PROVIDER_KEY" | "MAIL_FROM" | "SANDBOX">;

export async function sendSignInLink(env: MailEnv, to: string, url: string) {
  const provider = env.MAIL_PROVIDER_URL?.trim();
  if (!provider) {
    if (env.SANDBOX === "true") console.info(`Console sign-in link for ${to}: ${url}`);
    else console.warn("Console sign-in link not sent: MAIL_PROVIDER_URL is not set.");
    return;
  }
  const response = await fetch(provider, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${env.MAIL_PROVIDER_KEY ?? ""}` },
    body: JSON.stringify({
      from: env.MAIL_FROM || "no-reply@localhost",
      to,
      subject: "Your sign-in link",
      text: `Sign in to the console with this link. It works once, within 15 minutes:\n\n${url}\n\nIf you did not ask for it, ignore this mail.`,
    }),
  });
  if (!response.ok) console.error(`Console sign-in mail failed: the provider answered ${response.status}.`);
}
