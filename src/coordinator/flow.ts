// One delegation flow per Coordinator instance (`delegation:<id>`), in its SQLite storage. The instance
// runs one method at a time and every read-check-write below is synchronous SQL, so "first open wins"
// and "first callback wins" are exact under any concurrency. Alarms drive time: the authorize link
// expires at creation + 15 min, an opened flow at opening + 15 min, and a finished or expired flow is
// kept 24 h (so a late click still reaches the application with expired_request), then deleted.
// A flow is a delegation (a signed proof) or a connect (the account is stored in D1, by
// src/accounts/connect.ts); both run the same single-use steps. Nothing about the connected account
// (tokens, identity) is ever written here.
import type { Mode } from "../db/enums";
import { timingSafeEqualText } from "../lib/crypto";
import { forgetTables, hasTable } from "./tables";

export const AUTHORIZE_TTL_MS = 15 * 60_000;
export const FLOW_TTL_MS = 15 * 60_000;
export const RETENTION_MS = 24 * 3_600_000;

export type FlowStatus = "pending" | "opened" | "completed" | "expired";

/**
 * What a flow is for: a delegation signs a proof for the application (nothing about the account is
 * kept); a connect flow stores the account in `workspaceId`, for `userId` (POST /api/v1/accounts/connect).
 */
export type FlowKind = "delegation" | "connect";

/**
 * The account a connect flow stores: the workspace it joins, the user who asked (tenant scope); a
 * reconnect (POST /api/v1/accounts/{id}/reconnect) also names the account it must end on. `keyId`, the
 * API key that started the flow (re-checked before anything is stored), is filled in when the flow is
 * read back; absent on a choice held before it was kept.
 */
/** `mode`: the flow's (filled in when read back, like `keyId`). */
export type ConnectTarget = {
  workspaceId: number;
  userId: number;
  mode?: Mode;
  accountId?: number;
  keyId?: number;
};

/** A new flow; a connect flow's `callbackUrl` is its redirect_url and its `state` is empty. */
export type NewFlow = {
  platform: string;
  callbackUrl: string;
  state: string;
  keyId: number;
  /** The starting key's mode: a test flow runs on the emulators, whatever the deployment. */
  mode: Mode;
  connect?: ConnectTarget;
};

/**
 * Where a browser goes back to: the application's callback and its state; a connect flow also names
 * the account's workspace and user (delegation flows carry no `connect`).
 */
export type FlowTarget = {
  platform: string;
  callbackUrl: string;
  state: string;
  /** Absent on rows written before modes existed: those are live. */
  mode: Mode;
  connect?: ConnectTarget;
};

/** `stateSecretHash`: SHA-256 (hex) of the secret in the platform `state`; the secret itself is never kept. */
export type Opening = {
  browserHash: string;
  stateSecretHash: string;
  codeVerifier: string;
  redirectUri: string;
};
export type OpenResult =
  | { kind: "unknown" }
  | { kind: "expired"; target: FlowTarget }
  | { kind: "ok"; target: FlowTarget };

export type Finishing = { stateSecretHash: string; browserHash: string | null };
export type FinishResult =
  | { kind: "unknown" }
  | { kind: "used" | "expired" | "wrong_browser"; target: FlowTarget }
  | { kind: "ok"; target: FlowTarget; keyId: number; codeVerifier: string; redirectUri: string };

type Row = {
  status: FlowStatus;
  /** Absent on rows written before connect flows existed: those are delegations. */
  kind?: FlowKind | null;
  workspace_id?: number | null;
  user_id?: number | null;
  account_id?: number | null;
  mode?: Mode | null;
  platform: string;
  callback_url: string;
  state: string;
  key_id: number;
  expires_at: number;
  opened_at: number | null;
  browser_hash: string | null;
  state_secret: string | null;
  code_verifier: string | null;
  redirect_uri: string | null;
};

/** Created by the flow's creation only: reading an unknown flow leaves the instance empty. */
function table(storage: DurableObjectStorage) {
  storage.sql.exec(`CREATE TABLE IF NOT EXISTS delegation_flow (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    status TEXT NOT NULL,
    platform TEXT NOT NULL,
    callback_url TEXT NOT NULL,
    state TEXT NOT NULL,
    key_id INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    opened_at INTEGER,
    browser_hash TEXT,
    state_secret TEXT,
    code_verifier TEXT,
    redirect_uri TEXT,
    kind TEXT NOT NULL DEFAULT 'delegation',
    workspace_id INTEGER,
    user_id INTEGER,
    account_id INTEGER,
    mode TEXT NOT NULL DEFAULT 'live'
  )`);
  return storage.sql;
}

const readRow = (storage: DurableObjectStorage): Row | undefined =>
  hasTable(storage.sql, "delegation_flow")
    ? storage.sql.exec<Row>("SELECT * FROM delegation_flow WHERE id = 1").toArray()[0]
    : undefined;

const targetOf = (row: Row): FlowTarget => {
  const mode = row.mode ?? "live";
  const target: FlowTarget = {
    platform: row.platform,
    callbackUrl: row.callback_url,
    state: row.state,
    mode,
  };
  if (row.kind === "connect" && row.workspace_id != null && row.user_id != null) {
    target.connect = { workspaceId: row.workspace_id, userId: row.user_id, mode, keyId: row.key_id };
    if (row.account_id != null) target.connect.accountId = row.account_id;
  }
  return target;
};

/**
 * Ends a flow: the browser binding and the PKCE verifier go, and the row goes after the retention
 * period. The state secret's hash stays until then: a late callback must still prove the secret before
 * it learns anything about the flow (the application's callback and state).
 */
async function retire(storage: DurableObjectStorage, status: "completed" | "expired", now: number) {
  storage.sql.exec(
    "UPDATE delegation_flow SET status = ?, browser_hash = NULL, code_verifier = NULL WHERE id = 1",
    status,
  );
  await storage.setAlarm(now + RETENTION_MS);
}

export async function createFlow(storage: DurableObjectStorage, flow: NewFlow, now: number): Promise<void> {
  if (readRow(storage)) throw new Error("delegation flow already exists");
  table(storage).exec(
    "INSERT INTO delegation_flow (id, status, platform, callback_url, state, key_id, created_at, expires_at, kind, workspace_id, user_id, account_id, mode) VALUES (1, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    flow.platform,
    flow.callbackUrl,
    flow.state,
    flow.keyId,
    now,
    now + AUTHORIZE_TTL_MS,
    flow.connect ? "connect" : "delegation",
    flow.connect?.workspaceId ?? null,
    flow.connect?.userId ?? null,
    flow.connect?.accountId ?? null,
    flow.mode,
  );
  await storage.setAlarm(now + AUTHORIZE_TTL_MS);
}

/** The browser opened the authorize URL: only the first open of a live link proceeds. */
export async function openFlow(
  storage: DurableObjectStorage,
  opening: Opening,
  now: number,
): Promise<OpenResult> {
  const row = readRow(storage);
  if (!row) return { kind: "unknown" };
  const target = targetOf(row);
  if (row.status !== "pending") return { kind: "expired", target };
  if (now >= row.expires_at) {
    await retire(storage, "expired", now);
    return { kind: "expired", target };
  }
  storage.sql.exec(
    "UPDATE delegation_flow SET status = 'opened', opened_at = ?, browser_hash = ?, state_secret = ?, code_verifier = ?, redirect_uri = ? WHERE id = 1",
    now,
    opening.browserHash,
    opening.stateSecretHash,
    opening.codeVerifier,
    opening.redirectUri,
  );
  await storage.setAlarm(now + FLOW_TTL_MS);
  return { kind: "ok", target };
}

/** The platform sent the browser back: the first matching callback from the same browser completes. */
export async function finishFlow(
  storage: DurableObjectStorage,
  finishing: Finishing,
  now: number,
): Promise<FinishResult> {
  const row = readRow(storage);
  if (!row || row.opened_at === null) return { kind: "unknown" };
  // The secret first: without it, a callback learns nothing of the flow, not even that it was used.
  if (!row.state_secret || !timingSafeEqualText(finishing.stateSecretHash, row.state_secret))
    return { kind: "unknown" };
  const target = targetOf(row);
  if (row.status === "completed") return { kind: "used", target };
  if (row.status !== "opened") return { kind: "expired", target };
  if (now >= row.opened_at + FLOW_TTL_MS) {
    await retire(storage, "expired", now);
    return { kind: "expired", target };
  }
  // A callback from another browser neither proceeds nor burns the flow of the one that started it.
  if (
    !finishing.browserHash ||
    !row.browser_hash ||
    !timingSafeEqualText(finishing.browserHash, row.browser_hash)
  ) {
    return { kind: "wrong_browser", target };
  }
  const { key_id: keyId, code_verifier: codeVerifier, redirect_uri: redirectUri } = row;
  await retire(storage, "completed", now);
  return { kind: "ok", target, keyId, codeVerifier: codeVerifier ?? "", redirectUri: redirectUri ?? "" };
}

/** The alarm: a live flow expires; a finished or expired one is deleted. */
export async function flowAlarm(storage: DurableObjectStorage, now: number): Promise<void> {
  const row = readRow(storage);
  if (!row) return;
  if (row.status === "pending" || row.status === "opened") {
    await retire(storage, "expired", now);
    return;
  }
  await storage.deleteAll();
  forgetTables(storage.sql);
}
