#!/usr/bin/env node
// Operator CLI over /admin/v1. Usage: npm run admin -- <command> [--flag value ...]
// Target: --url or ADMIN_URL, else the local dev server (http://localhost:$PORT, 8787 without PORT, as
// `npm run dev` listens); token: --token, ADMIN_TOKEN or .dev.vars.
import { adminCall, localBaseUrl, readVars } from "./lib.mjs";

const COMMANDS = {
  // --shard: the D1 database the user and their workspaces live in (docs/scaling.md); default NEW_USER_SHARD.
  "create-user": {
    method: "POST",
    path: () => "/users",
    flags: "--name --email [--shard 0] [--subscription active]",
  },
  "find-user": {
    method: "GET",
    body: false,
    path: (f) => `/users?email=${encodeURIComponent(f.email ?? "")}`,
    flags: "--email",
  },
  "create-workspace": {
    method: "POST",
    path: () => "/workspaces",
    flags: "--user_id --name [--slug --type --timezone --language --logo]",
  },
  "add-member": {
    method: "POST",
    path: (f) => `/workspaces/${f.workspace_id}/members`,
    flags: "--workspace_id --user_id",
  },
  "create-account": {
    method: "POST",
    path: () => "/accounts",
    flags: "--workspace_id --platform --username --name [--avatar --is_verified]",
  },
  "create-api-key": {
    method: "POST",
    path: () => "/api-keys",
    flags: "--user_id --abilities posts,workspaces,accounts,labels [--name --expires_at]",
  },
  "signing-secret": {
    method: "POST",
    body: false,
    path: (f) => `/api-keys/${f.id}/signing-secret`,
    flags: "--id",
  },
  "list-api-keys": {
    method: "GET",
    body: false,
    path: (f) => `/users/${f.user_id}/api-keys`,
    flags: "--user_id",
  },
  // A compromised key: revoke it, or roll it (a new key with the same grants; the old one stops at once).
  "revoke-api-key": { method: "DELETE", body: false, path: (f) => `/api-keys/${f.id}`, flags: "--id" },
  "roll-api-key": { method: "POST", body: false, path: (f) => `/api-keys/${f.id}/roll`, flags: "--id" },
  // Abilities and/or expiry (`--expires_at none` clears it); holds from the key's next request.
  "update-api-key": {
    method: "PATCH",
    path: (f) => `/api-keys/${f.id}`,
    flags: "--id [--abilities posts,labels --expires_at 2030-01-01T00:00:00Z|none]",
  },
  // Where the key's delegation sessions may send browsers back to (empty list: anywhere https).
  "set-callback-origins": {
    method: "PUT",
    path: (f) => `/api-keys/${f.id}/callback-origins`,
    flags: "--id --callback_origins https://app.example.com,http://localhost:3000",
  },
  // A one-time link (15 minutes) that signs the user in to the console: an invitation to hand over.
  "sign-in-link": {
    method: "POST",
    body: false,
    path: (f) => `/users/${f.user_id}/sign-in-links`,
    flags: "--user_id",
  },
  "set-subscription": {
    method: "PUT",
    path: (f) => `/users/${f.user_id}/subscription`,
    flags: "--user_id --status active|trialing|grace_period|canceled|none",
  },
};
const PATH_ONLY = new Set(["workspace_id", "id"]);

function parseFlags(args) {
  const flags = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) throw new Error(`unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split("=", 2);
    const value = inline ?? (args[i + 1]?.startsWith("--") || args[i + 1] === undefined ? "true" : args[++i]);
    flags[name.replaceAll("-", "_")] = value;
  }
  return flags;
}

function toBody(command, flags) {
  const body = {};
  for (const [name, value] of Object.entries(flags)) {
    if (["url", "token"].includes(name)) continue;
    if (PATH_ONLY.has(name) && command !== "create-account") continue;
    if (name === "abilities" || name === "callback_origins")
      body[name] = value === "true" ? [] : value.split(",").filter(Boolean);
    else if (name.endsWith("_id") || name === "shard") body[name] = Number(value);
    else if (name.startsWith("is_")) body[name] = value === "true";
    else if (name === "expires_at" && value === "none") body[name] = null;
    else body[name] = value;
  }
  return body;
}

function usage() {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(18)} ${c.flags}`);
  return `Usage: npm run admin -- <command> [--url URL] [--token TOKEN] [flags]\n\nCommands:\n${lines.join("\n")}`;
}

const [command, ...rest] = process.argv.slice(2);
const spec = COMMANDS[command];
if (!spec) {
  console.error(usage());
  process.exit(command ? 2 : 0);
}
try {
  const flags = parseFlags(rest);
  const baseUrl = flags.url ?? process.env.ADMIN_URL ?? localBaseUrl();
  const token = flags.token ?? process.env.ADMIN_TOKEN ?? readVars(".dev.vars").ADMIN_TOKEN;
  if (!token) throw new Error("no admin token: pass --token, set ADMIN_TOKEN, or create .dev.vars");
  // Commands whose flags only fill the path send no body.
  const body = spec.body === false ? undefined : toBody(command, flags);
  const answer = await adminCall(baseUrl, token, spec.method, spec.path(flags), body);
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
