// Every platform's emulator (src/sandbox/<platform>/), by name: mounted at /sandbox/<platform>, each
// answering the calls its real adapter makes on the platform's own paths.
import type { Platform } from "../db/enums";
import type { emulatorRouter } from "./emulator";
import { facebookEmulator } from "./facebook";
import { instagramEmulator } from "./instagram";
import { linkedinEmulator } from "./linkedin";
import { pinterestEmulator } from "./pinterest";
import { threadsEmulator } from "./threads";
import { tiktokEmulator } from "./tiktok";
import { twitterEmulator } from "./twitter";
import { youtubeEmulator } from "./youtube";

export type EmulatorRouter = ReturnType<typeof emulatorRouter>;

/** Every platform has one: with SANDBOX=true, every platform's adapter runs on its emulator. */
export const EMULATORS: Record<Platform, EmulatorRouter> = {
  facebook: facebookEmulator,
  instagram: instagramEmulator,
  linkedin: linkedinEmulator,
  pinterest: pinterestEmulator,
  threads: threadsEmulator,
  tiktok: tiktokEmulator,
  twitter: twitterEmulator,
  youtube: youtubeEmulator,
};
