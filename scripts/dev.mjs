#!/usr/bin/env node
// `npm run dev`: local vars, local D1 migrations, `wrangler dev`, then demo data and a printed key.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";
import { localBaseUrl, readVars } from "./lib.mjs";
import { demoSignInLink, seedDemo } from "./seed.mjs";

// The admin CLI finds this server the same way (PORT).
const BASE_URL = localBaseUrl();
const PORT = new URL(BASE_URL).port;
// Offline by design: no usage metrics, and no download of the Request.cf sample (a placeholder is used).
const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.warn("created .dev.vars from .dev.vars.example");
}

// Quietly: wrangler prints a table per migration (hundreds of lines on a first run), shown only when
// applying them fails.
process.stdout.write("applying local D1 migrations… ");
const migrate = spawnSync("wrangler", ["d1", "migrations", "apply", "DB", "--local"], {
  encoding: "utf8",
  env: { ...env, CI: "true" },
});
if (migrate.status !== 0) {
  process.stdout.write("failed:\n");
  process.stdout.write(migrate.stdout ?? "");
  process.stderr.write(migrate.stderr ?? "");
  if (migrate.error) console.error(migrate.error.message);
  process.exit(migrate.status ?? 1);
}
process.stdout.write("done\n");

// Background work builds URLs on PUBLIC_BASE_URL; left empty, it is this dev server's own origin.
const publicBase = readVars(".dev.vars").PUBLIC_BASE_URL ? [] : ["--var", `PUBLIC_BASE_URL:${BASE_URL}`];
// --test-scheduled lets this script run the cron's handler: wrangler dev never fires Cron Triggers.
const wrangler = spawn(
  "wrangler",
  ["dev", "--port", PORT, "--test-scheduled", ...publicBase, ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env,
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => wrangler.kill(signal));
wrangler.on("exit", (code) => process.exit(code ?? 0));

async function waitUntilUp(deadline = Date.now() + 120_000) {
  while (Date.now() < deadline) {
    try {
      if ((await fetch(BASE_URL)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`the worker did not answer on ${BASE_URL}`);
}

/**
 * Production's Cron Trigger runs the safety-net sweep every minute (due posts whose wake-up was missed,
 * posts stuck in PUBLISHING, the analytics refresh). Under wrangler dev, delayed queue messages live in
 * memory, so a restart or reload loses pending wake-ups: this does what the cron does, every minute.
 */
function runCronEveryMinute() {
  const tick = () =>
    fetch(`${BASE_URL}/__scheduled?cron=${encodeURIComponent("* * * * *")}`).catch(() => undefined);
  setInterval(tick, 60_000).unref();
  return tick();
}

try {
  await waitUntilUp();
  await runCronEveryMinute();
  const adminToken = readVars(".dev.vars").ADMIN_TOKEN;
  const demo = await seedDemo(BASE_URL, adminToken);
  const signInLink = await demoSignInLink(BASE_URL, adminToken, demo.user_id);
  process.stdout.write(
    [
      "",
      "  Social publishing API is running.",
      `  API:             ${BASE_URL}/api/v1`,
      `  Demo API key:    ${demo.key}`,
      `  Signing secret:  ${demo.signing_secret}`,
      `  Try:             curl -H "Authorization: Bearer ${demo.key}" ${BASE_URL}/api/v1/workspaces`,
      `  Console:         ${signInLink}`,
      "                   (the demo user's sign-in link: one use, 15 minutes; a new one at each start)",
      "",
    ].join("\n"),
  );
} catch (error) {
  console.error(`demo data was not created: ${error.message}`);
}
