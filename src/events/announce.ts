// Telling the webhooks that outbox rows were recorded: one message on the `webhooks` queue naming them,
// sent once the batch that recorded them has committed. It is only a hint that saves waiting for the
// cron: a failed send is logged and never fails the feature, since the row stays and the cron's sweep
// (src/webhooks/outbox.ts) emits it after a minute.
import { OUTBOX_TYPES } from "../db/schema";
import type { OutboxKey } from "./record";

/** The announcement's body on the `webhooks` queue (besides the webhooks' own `{delivery_id}`). */
export type OutboxMessage = { outbox: OutboxKey[] };

/** Keys one message names at most (a feature's batch records one or a few). */
export const MAX_ANNOUNCED = 100;

/** Sends one message naming `keys`; nothing when there are none. Never throws. */
export async function announce(env: Pick<Env, "WEBHOOKS_QUEUE">, keys: readonly OutboxKey[]): Promise<void> {
  if (keys.length === 0) return;
  try {
    await env.WEBHOOKS_QUEUE.send({ outbox: keys.slice(0, MAX_ANNOUNCED) } satisfies OutboxMessage);
  } catch (error) {
    // The rows wait for the sweep.
    console.error("events: could not announce", keys, error);
  }
}

const isKey = (key: unknown): key is OutboxKey => {
  const k = key as Partial<OutboxKey> | null;
  return (
    typeof k === "object" &&
    k !== null &&
    OUTBOX_TYPES.includes(k.type as OutboxKey["type"]) &&
    typeof k.record_id === "number" &&
    Number.isSafeInteger(k.record_id) &&
    k.record_id > 0 &&
    typeof k.version === "string" &&
    k.version.length <= 200
  );
};

/** The announcement, or null when the body is not one. */
export function parseOutboxMessage(body: unknown): OutboxMessage | null {
  const keys = (body as { outbox?: unknown } | null)?.outbox;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_ANNOUNCED || !keys.every(isKey))
    return null;
  return { outbox: keys.map(({ type, record_id, version }) => ({ type, record_id, version })) };
}
