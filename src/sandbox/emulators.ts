// Every platform's emulator (src/sandbox/<platform>/), by name: mounted at /sandbox/<platform>, each
// answering the calls its real adapter makes on the platform's own paths.
import type { Platform } from "../db/enums";
import type { emulatorRouter } from "./emulator";
import { registerShapes, type SandboxShape } from "./shapes";

// Whoever reads a platform id needs the registry filled: importing it from here makes sure it is.
export { sandboxPlatformId } from "./shapes";

import { facebookEmulator } from "./facebook";
import { commentIdOf as facebookCommentId } from "./facebook/read";
import { facebookShape } from "./facebook/token";
import { instagramEmulator } from "./instagram";
import { instagramShape } from "./instagram/token";
import { linkedinEmulator } from "./linkedin";
import { commentUrn as linkedinCommentId } from "./linkedin/read";
import { linkedinShape } from "./linkedin/token";
import { pinterestEmulator } from "./pinterest";
import { pinterestShape } from "./pinterest/token";
import { threadsEmulator } from "./threads";
import { threadsShape } from "./threads/token";
import { tiktokEmulator } from "./tiktok";
import { tiktokShape } from "./tiktok/token";
import { twitterEmulator } from "./twitter";
import { twitterShape } from "./twitter/token";
import { youtubeEmulator } from "./youtube";
import { youtubeShape } from "./youtube/token";

export type EmulatorRouter = ReturnType<typeof emulatorRouter>;

/** A platform's emulator: its router (mounted at /sandbox/<platform>) and its shape (shapes.ts). */
export type Emulator = { router: EmulatorRouter; shape: SandboxShape };

/** Every platform has one: with SANDBOX=true, every platform's adapter runs on its emulator. */
export const EMULATORS: Record<Platform, Emulator> = {
  facebook: { router: facebookEmulator, shape: { ...facebookShape, commentId: facebookCommentId } },
  instagram: { router: instagramEmulator, shape: instagramShape },
  linkedin: { router: linkedinEmulator, shape: { ...linkedinShape, commentId: linkedinCommentId } },
  pinterest: { router: pinterestEmulator, shape: pinterestShape },
  threads: { router: threadsEmulator, shape: threadsShape },
  tiktok: { router: tiktokEmulator, shape: tiktokShape },
  twitter: { router: twitterEmulator, shape: twitterShape },
  youtube: { router: youtubeEmulator, shape: youtubeShape },
};

registerShapes(
  Object.fromEntries(Object.entries(EMULATORS).map(([platform, { shape }]) => [platform, shape])) as Record<
    Platform,
    SandboxShape
  >,
);
