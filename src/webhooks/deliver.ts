// The `webhooks` queue consumer, at least once. It carries two kinds of message: an announcement of
// outbox rows just recorded (`{outbox: [...]}`, src/events/announce.ts), whose events are emitted
// (outbox.ts), and one message per delivery (`{delivery_id}`). A delivery's run claims its attempt (a
// lease, so two copies of a message never post at once), signs and POSTs the event's stored body, and
// records the attempt. A failure is retried on the schedule of catalog.ts by retrying the message with a
// delay; the eighth failure fails the delivery. An endpoint whose every attempt has failed for three days
// is disabled, and a disabled endpoint's pending deliveries fail without being sent. `webhooks-dlq` fails
// whatever delivery still pends when its message runs out of Queues' retries.
import { and, eq, exists, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { type DeliveryAttempt, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { shardDatabases } from "../db/shards";
import { decryptSecret } from "../lib/crypto";
import { DEAD_LETTER_BACKOFF, eachMessage, MAX_QUEUE_DELAY_SECONDS, retryAfter } from "../lib/queue";
import { attemptDelivery } from "./attempt";
import { DISABLE_AFTER_MS, MAX_ATTEMPTS, retryDelaySeconds } from "./catalog";
import { parseWebhookMessage } from "./events";
import { emitAnnounced } from "./outbox";

/** An attempt older than this (timeouts included) lost its lease: its worker died. */
export const LEASE_MS = 60_000;

const DISABLED_REASON = `Every delivery attempt failed for ${DISABLE_AFTER_MS / (24 * 3600_000)} days.`;

export async function consumeWebhooks(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "webhooks",
    parse: parseWebhookMessage,
    // For an announcement whose emission failed, and the unexpected (D1 down): attempts schedule their
    // own retries.
    backoff: { base: 30, cap: MAX_QUEUE_DELAY_SECONDS },
    handle: async (body, message) => {
      if ("outbox" in body) {
        await emitAnnounced(env, shards, body.outbox);
        return;
      }
      const retryIn = await deliverOnce(env, shards.of(body.delivery_id), body.delivery_id);
      if (retryIn !== null) retryAfter(message, retryIn);
    },
  });
}

/**
 * Dead letters: a delivery's message ran out of retries, so the delivery, if still pending, fails. An
 * announcement's rows stay in the outbox for the cron's sweep.
 */
export async function consumeWebhookDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const shards = shardDatabases(env);
  await eachMessage(batch, {
    name: "webhooks-dlq",
    parse: parseWebhookMessage,
    deadLetters: true,
    backoff: DEAD_LETTER_BACKOFF,
    handle: async (body) => {
      if ("outbox" in body) return;
      await shards
        .of(body.delivery_id)
        .update(webhookDeliveries)
        .set({ status: "failed", nextAttemptAt: null, attemptStartedAt: null, updatedAt: new Date() })
        .where(and(eq(webhookDeliveries.id, body.delivery_id), eq(webhookDeliveries.status, "pending")));
    },
  });
}

const pendingDelivery = (id: number) =>
  and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "pending"));

/** Claims and makes one attempt; answers the seconds until the message should run again, or null. */
export async function deliverOnce(
  env: Env,
  db: Database,
  id: number,
  now = Date.now(),
): Promise<number | null> {
  const at = new Date(now);
  const [, claimed, [row]] = await db.batch([
    db
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, updatedAt: at })
      .where(
        and(
          pendingDelivery(id),
          exists(
            db
              .select({ one: sql`1` })
              .from(webhookEndpoints)
              .where(
                and(
                  eq(webhookEndpoints.id, webhookDeliveries.endpointId),
                  isNotNull(webhookEndpoints.disabledAt),
                ),
              ),
          ),
        ),
      ),
    db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, attemptStartedAt: at, updatedAt: at })
      .where(
        and(
          pendingDelivery(id),
          or(
            isNull(webhookDeliveries.attemptStartedAt),
            lt(webhookDeliveries.attemptStartedAt, new Date(now - LEASE_MS)),
          ),
        ),
      )
      .returning({ attempt: webhookDeliveries.attempts }),
    // Named columns only: a D1 batch keys results by column name.
    db
      .select({
        status: webhookDeliveries.status,
        endpointId: webhookDeliveries.endpointId,
        eventId: webhookDeliveries.eventId,
        url: webhookEndpoints.url,
        secretEnc: webhookEndpoints.secretEnc,
        previousSecretEnc: webhookEndpoints.previousSecretEnc,
        previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
        body: webhookEvents.body,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, id)),
  ]);
  const attempt = claimed[0]?.attempt;
  // Gone (its endpoint was deleted), settled, or its endpoint disabled: nothing to send.
  if (row?.status !== "pending") return null;
  // Another copy of the message holds the attempt: look again once its lease has run out.
  if (attempt === undefined) return LEASE_MS / 1000;

  const secrets = [await decryptSecret(env.ENCRYPTION_KEY, row.secretEnc)];
  if (row.previousSecretEnc && (row.previousSecretExpiresAt?.getTime() ?? 0) > now)
    secrets.push(await decryptSecret(env.ENCRYPTION_KEY, row.previousSecretEnc));
  const result = await attemptDelivery(env, { url: row.url, secrets }, { id: row.eventId, body: row.body });

  const finished = new Date();
  const entry: DeliveryAttempt = {
    attempt,
    at: now,
    response_status: result.status,
    duration_ms: result.durationMs,
    error_code: result.errorCode,
    error: result.error,
    response_excerpt: result.excerpt,
  };
  const last = !result.ok && attempt >= MAX_ATTEMPTS;
  const delay = retryDelaySeconds(attempt);
  const status = result.ok ? "succeeded" : last ? "failed" : "pending";
  await db.batch([
    // Under the lease: an attempt that outlived it (and was taken over) records nothing.
    db
      .update(webhookDeliveries)
      .set({
        status,
        log: sql`json_insert(${webhookDeliveries.log}, '$[#]', json(${JSON.stringify(entry)}))`,
        nextAttemptAt: status === "pending" ? new Date(finished.getTime() + delay * 1000) : null,
        attemptStartedAt: null,
        updatedAt: finished,
      })
      .where(and(pendingDelivery(id), eq(webhookDeliveries.attemptStartedAt, at))),
    endpointHealth(db, row.endpointId, result.ok, finished.getTime()),
  ]);
  return status === "pending" ? delay : null;
}

/**
 * A success clears the endpoint's failing streak; a failure starts one, or disables the endpoint once
 * the streak is older than DISABLE_AFTER_MS (the SET expressions read the row as it was).
 */
function endpointHealth(db: Database, endpointId: number, ok: boolean, now: number) {
  const endpoint = eq(webhookEndpoints.id, endpointId);
  if (ok)
    return db
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(endpoint, isNotNull(webhookEndpoints.failingSince)));
  const expired = sql`(${webhookEndpoints.disabledAt} IS NULL AND ${webhookEndpoints.failingSince} <= ${now - DISABLE_AFTER_MS})`;
  return db
    .update(webhookEndpoints)
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now})`,
      disabledAt: sql`CASE WHEN ${expired} THEN ${now} ELSE ${webhookEndpoints.disabledAt} END`,
      disabledReason: sql`CASE WHEN ${expired} THEN ${DISABLED_REASON} ELSE ${webhookEndpoints.disabledReason} END`,
      updatedAt: sql`CASE WHEN ${expired} THEN ${now} ELSE ${webhookEndpoints.updatedAt} END`,
    })
    .where(endpoint);
}
