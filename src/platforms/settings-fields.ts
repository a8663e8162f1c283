// Field builders the platforms' settings schemas share (src/platforms/<platform>/settings.ts).
import { z } from "zod";

/** A platform id given by the client: trimmed, 1 to 64 characters, null by default. */
export const id = () => z.string().trim().min(1).max(64).nullable().default(null);
/** Text up to `max` characters, null by default. */
export const text = (max: number) => z.string().max(max).nullable().default(null);
/** The rendered shape of an `id()` and of a `text()`. */
export const nullableId = () => z.string().nullable();
export const nullableText = () => z.string().nullable();
