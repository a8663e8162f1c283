// Every platform's emulator (src/sandbox/<platform>/), by name: mounted at /sandbox/<platform>, each
// answering the calls its real adapter makes on the platform's own paths.
import type { Platform } from "../db/enums";
import type { emulatorRouter } from "./emulator";
import { twitterEmulator } from "./twitter";

export type EmulatorRouter = ReturnType<typeof emulatorRouter>;

export const EMULATORS: Partial<Record<Platform, EmulatorRouter>> = { twitter: twitterEmulator };
