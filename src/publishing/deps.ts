// What the publish consumer needs from outside the database, injectable so tests can swap in a fake
// platform or a clock: the adapter of a platform for background work, the time, and a pause.
import type { Mode, Platform } from "../db/enums";
import { publishingAdapter } from "../platforms";
import type { PlatformAdapter } from "../platforms/types";

export type PublishDeps = {
  /** May throw a PlatformError (a platform not configured): the row's attempt fails with it. */
  adapterFor(env: Env, platform: Platform, mode: Mode): PlatformAdapter;
  now(): number;
  sleep(ms: number): Promise<void>;
};

export const defaultDeps: PublishDeps = {
  adapterFor: publishingAdapter,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
