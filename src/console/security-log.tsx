// The security page's log of key and secret events (security_events, written by the batch of each
// change: src/db/security-events.ts), newest first, and the actor the console's own changes name.
import { desc, eq } from "drizzle-orm";
import type { FC } from "hono/jsx";
import type { Database } from "../db/client";
import { securityEvents } from "../db/schema";
import type { Actor, SecurityEventKind } from "../db/security-events";
import type { Ctx } from "./page-routes";
import type { Session } from "./sessions";

/** Events the page lists; the cron deletes those over SECURITY_EVENT_RETENTION_MS (sweep.ts). */
export const EVENTS_LISTED = 100;
export const SECURITY_EVENT_RETENTION_MS = 365 * 24 * 3600_000;

/** The signed-in session as the actor of a change it makes. */
export const consoleActor = (c: Ctx, session: Session): Actor => ({
  kind: "console",
  sessionId: session.id,
  userAgent: c.req.header("user-agent") ?? null,
});

/** The user's newest events (through the user_id index, in id order). */
export const securityEventsOf = (db: Database, userId: number) =>
  db
    .select()
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(desc(securityEvents.id))
    .limit(EVENTS_LISTED);

const WHAT: Record<SecurityEventKind, string> = {
  key_created: "Key created",
  key_changed: "Key abilities or expiry changed",
  key_rolled: "Key rolled",
  key_revoked: "Key revoked",
  signing_secret_generated: "Signing secret generated",
  callback_origins_changed: "Callback origins changed",
  webhook_secret_rolled: "Webhook secret rolled",
};

type Event = typeof securityEvents.$inferSelect;

const who = (event: Event, currentSessionId: number) => {
  if (event.actor === "operator") return "operator API";
  if (event.actor === "api") return "API";
  const agent = event.userAgent ?? "unknown browser";
  return event.sessionId === currentSessionId
    ? `console (this browser, ${agent})`
    : `console (another session, ${agent})`;
};

/** The section "Key and secret events" of the security page; reads its own rows. */
export const SecurityLog: FC<{ db: Database; session: Session }> = async ({ db, session }) => {
  const events = await securityEventsOf(db, session.userId);
  return (
    <section aria-labelledby="security-log">
      <h2 id="security-log">Key and secret events</h2>
      <p class="muted">
        Every change of a key, a signing secret, callback origins or a webhook secret, newest first (the last{" "}
        {EVENTS_LISTED}, kept for a year).
      </p>
      {events.length === 0 ? (
        <p>No events yet.</p>
      ) : (
        <ul class="log">
          {events.map((event) => (
            <li>
              <strong>{WHAT[event.kind]}</strong>: {event.label}
              <br />
              <span class="muted">
                <time datetime={event.createdAt.toISOString()}>{event.createdAt.toISOString()}</time> by{" "}
                {who(event, session.id)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
