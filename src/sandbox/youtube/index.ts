import { emulatorRouter } from "../emulator";
export const youtubeEmulator = emulatorRouter(() => new Response());
