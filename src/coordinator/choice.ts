// A connect flow that waits for the user to pick a channel (a Facebook Page, a LinkedIn organisation, a
// YouTube channel): its tokens and the channels to pick from, sealed (AES-GCM under ENCRYPTION_KEY, by
// src/accounts/channels.ts) and held in the flow's own Coordinator instance for the browser that
// finished the consent. The first pick from that browser takes it; it is gone after FLOW_TTL_MS either
// way, so no token outlives the page that needed it.
import { timingSafeEqualText } from "../lib/crypto";
import { FLOW_TTL_MS, type FlowTarget, RETENTION_MS } from "./flow";
import { hasTable } from "./tables";

export type HeldChoice = { browserHash: string; sealed: string; target: FlowTarget };
export type TakeResult =
  | { kind: "unknown" }
  | { kind: "wrong_browser" }
  | { kind: "expired"; target: FlowTarget }
  | { kind: "ok"; sealed: string; target: FlowTarget };

type Row = { browser_hash: string; sealed: string; target: string; expires_at: number };

function table(storage: DurableObjectStorage) {
  storage.sql.exec(`CREATE TABLE IF NOT EXISTS connect_choice (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    browser_hash TEXT NOT NULL,
    sealed TEXT NOT NULL,
    target TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  )`);
  return storage.sql;
}

export async function holdChoice(storage: DurableObjectStorage, choice: HeldChoice, now: number) {
  table(storage).exec(
    "INSERT OR REPLACE INTO connect_choice (id, browser_hash, sealed, target, expires_at) VALUES (1, ?, ?, ?, ?)",
    choice.browserHash,
    choice.sealed,
    JSON.stringify(choice.target),
    now + FLOW_TTL_MS,
  );
  await storage.setAlarm(now + FLOW_TTL_MS);
}

/** The pick: only from the browser that finished the consent, once, within FLOW_TTL_MS. */
export function takeChoice(
  storage: DurableObjectStorage,
  browserHash: string | null,
  now: number,
): TakeResult {
  const sql = storage.sql;
  if (!hasTable(sql, "connect_choice")) return { kind: "unknown" };
  const row = sql.exec<Row>("SELECT * FROM connect_choice WHERE id = 1").toArray()[0];
  if (!row) return { kind: "unknown" };
  // Another browser neither proceeds nor burns the choice of the one that consented.
  if (!browserHash || !timingSafeEqualText(browserHash, row.browser_hash)) return { kind: "wrong_browser" };
  sql.exec("DELETE FROM connect_choice WHERE id = 1");
  const target = JSON.parse(row.target) as FlowTarget;
  if (now >= row.expires_at) return { kind: "expired", target };
  return { kind: "ok", sealed: row.sealed, target };
}

/**
 * The alarm of a flow holding a choice: the choice goes (unpicked tokens do not linger), and the
 * flow's retention alarm is set again. False when there was no choice.
 */
export async function dropChoice(storage: DurableObjectStorage, now: number): Promise<boolean> {
  const sql = storage.sql;
  if (!hasTable(sql, "connect_choice")) return false;
  if (sql.exec("SELECT 1 FROM connect_choice WHERE id = 1").toArray().length === 0) return false;
  sql.exec("DELETE FROM connect_choice WHERE id = 1");
  await storage.setAlarm(now + RETENTION_MS);
  return true;
}
