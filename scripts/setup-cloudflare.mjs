#!/usr/bin/env node
// `npm run setup:cloudflare`: the wrangler commands that create what wrangler.toml binds on a fresh
// Cloudflare account (the D1 database, the R2 bucket, the queues and their dead-letter queues, the two
// secrets), printed in order. Nothing runs unless `--yes` is given; with it, each runs in turn and the
// first failure stops the rest. Resources that already exist make their command fail: run the ones left
// by hand. Afterwards: put the printed database_id into wrangler.toml, then `npm run db:migrate:remote`
// and `npm run deploy` (docs/operations.md, "Self-hosting").
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";

const say = (line) => process.stdout.write(`${line}\n`);

const run = process.argv.includes("--yes");
const withAdmin = !process.argv.includes("--no-admin");

const toml = readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8");
const value = (key) => [...toml.matchAll(new RegExp(`^${key}\\s*=\\s*"([^"]+)"`, "gm"))].map((m) => m[1]);
const [database] = value("database_name");
const [bucket] = value("bucket_name");
// Every queue the file names (producers, consumers and dead letters), once each.
const queues = [...new Set([...value("queue"), ...value("dead_letter_queue")])];

/** Each step: what it makes, the wrangler arguments, and the secret fed to its stdin, if any. */
const steps = [
  {
    what: `D1 database ${database} (copy its database_id into wrangler.toml)`,
    args: ["d1", "create", database],
  },
  { what: `R2 bucket ${bucket}`, args: ["r2", "bucket", "create", bucket] },
  ...queues.map((queue) => ({ what: `queue ${queue}`, args: ["queues", "create", queue] })),
  {
    what: "secret ENCRYPTION_KEY (32 random bytes, base64: keep a copy; changing it loses every stored secret)",
    args: ["secret", "put", "ENCRYPTION_KEY"],
    input: randomBytes(32).toString("base64"),
    shown: "$(openssl rand -base64 32)",
  },
  ...(withAdmin
    ? [
        {
          what: "secret ADMIN_TOKEN (the operator API's token; shown once at the end: store it)",
          args: ["secret", "put", "ADMIN_TOKEN"],
          input: randomBytes(32).toString("base64url"),
          // Run by hand, the command keeps the token it makes in a variable and shows it.
          prefix:
            'ADMIN_TOKEN="$(openssl rand -base64 32)"; echo "ADMIN_TOKEN=$ADMIN_TOKEN  (store it now)"; ',
          shown: "$ADMIN_TOKEN",
          reveal: true,
        },
      ]
    : []),
];

const quoted = (step) =>
  step.input === undefined
    ? `npx wrangler ${step.args.join(" ")}`
    : `${step.prefix ?? ""}echo "${step.shown}" | npx wrangler ${step.args.join(" ")}`;

if (!run) {
  say("# The commands that create this worker's Cloudflare resources (nothing was run).");
  say("# Run them yourself, or again with --yes to run them (--no-admin leaves ADMIN_TOKEN unset).\n");
  for (const step of steps) say(`# ${step.what}\n${quoted(step)}\n`);
  say("# Then: the database_id into wrangler.toml, npm run db:migrate:remote, npm run deploy.");
  process.exit(0);
}

const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
for (const step of steps) {
  say(`\n→ ${step.what}`);
  const result = spawnSync("npx", ["wrangler", ...step.args], {
    stdio: [step.input === undefined ? "inherit" : "pipe", "inherit", "inherit"],
    input: step.input,
    env,
  });
  if (result.status !== 0) {
    console.error(
      `\nstopped: \`${quoted(step)}\` failed (exit ${result.status}). The steps after it did not run.`,
    );
    process.exit(result.status ?? 1);
  }
}
say("\nDone. Next: the database_id into wrangler.toml, npm run db:migrate:remote, npm run deploy.");
// The token, once, after every step's output: Cloudflare never shows a secret again.
const admin = steps.find((step) => step.reveal);
if (admin)
  say(
    [
      "",
      "The operator API's token (ADMIN_TOKEN), shown this once:",
      "",
      `    ${admin.input}`,
      "",
      "Store it now in your password manager or secrets store; Cloudflare keeps it but never shows it again",
      "(lost: set a new one with `npx wrangler secret put ADMIN_TOKEN`). Use it as",
      `    ADMIN_TOKEN=<the token> npm run admin -- --url https://<your worker> <command>`,
      "",
    ].join("\n"),
  );
