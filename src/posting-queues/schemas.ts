// The posting queues' requests and answers. Slots are local wall-clock times; every instant answered
// carries its offset, and the zone it was computed in is named beside it.
import { z } from "zod";
import { queryInt, timezone, zonedTime } from "../lib/schemas";

/** Slots one queue may hold: ten a day. */
export const MAX_SLOTS = 70;
/** Free slots `GET …/queue/slots` answers at most. */
export const MAX_LISTED_SLOTS = 100;

const slotSchema = z
  .strictObject({
    day: z
      .int()
      .min(1)
      .max(7)
      .meta({ description: "ISO day of the week: 1 is Monday, 7 is Sunday.", example: 1 }),
    time: z
      .string()
      .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, {
        error: "The :attribute field must be a time HH:MM (00:00 to 23:59).",
      })
      .meta({ description: "Local wall-clock time in the queue's zone, `HH:MM`.", example: "09:00" }),
  })
  .meta({ id: "QueueSlot" });

export const putQueueBody = z
  .strictObject({
    slots: z
      .array(slotSchema)
      .max(MAX_SLOTS)
      .refine((slots) => new Set(slots.map((s) => `${s.day} ${s.time}`)).size === slots.length, {
        error: "The slots must be distinct.",
      })
      .meta({ description: `The weekly slots, at most ${MAX_SLOTS}; replaces the queue's slots.` }),
    timezone: timezone
      .nullable()
      .optional()
      .meta({ description: "IANA zone the slots are read in; absent or null: the workspace's." }),
    paused: z
      .boolean()
      .optional()
      .meta({ description: "A paused queue offers no slot: `queue: true` is refused until it resumes." }),
  })
  .meta({
    id: "PutQueueRequest",
    example: {
      slots: [
        { day: 1, time: "09:00" },
        { day: 3, time: "09:00" },
        { day: 5, time: "17:30" },
      ],
      timezone: "Europe/Paris",
    },
  });
export type QueueInput = z.output<typeof putQueueBody>;

const queueFields = {
  timezone: z.string().meta({ description: "The zone the slots are read in (the workspace's unless set)." }),
  timezone_inherited: z.boolean().meta({ description: "Whether `timezone` is the workspace's own." }),
  slots: z.array(slotSchema).meta({ description: "Sorted by day, then time." }),
  paused: z.boolean(),
};

export const accountQueueSchema = z
  .strictObject({
    account_id: z.int(),
    source: z.enum(["account", "workspace", "none"]).meta({
      description:
        "Where the queue comes from: the account's own (`account`), the workspace's default it inherits (`workspace`), or neither (`none`: no slots).",
    }),
    ...queueFields,
  })
  .meta({ id: "AccountQueue", description: "The queue an account's `queue: true` posts take slots from." });

export const workspaceQueueSchema = z
  .strictObject({ workspace_id: z.int(), ...queueFields })
  .meta({ id: "WorkspaceQueue", description: "The default queue of a workspace's accounts." });

export const slotsQuery = z.strictObject({
  count: queryInt(1, MAX_LISTED_SLOTS)
    .default(10)
    .meta({ description: `How many free slots to list (1 to ${MAX_LISTED_SLOTS}; 10 by default).` }),
});

export const freeSlotsSchema = z
  .strictObject({
    account_id: z.int(),
    timezone: z.string().meta({ description: "The queue's zone, in which every time is written." }),
    paused: z.boolean().meta({ description: "A paused queue lists no slot." }),
    data: z.array(zonedTime().meta({ example: "2026-03-29T09:00:00+02:00" })).meta({
      description: "The next free slots within 90 days, earliest first, ISO 8601 with the zone's offset.",
    }),
  })
  .meta({ id: "QueueSlots" });
