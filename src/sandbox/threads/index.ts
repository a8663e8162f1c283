// The emulator of the Threads API (graph.threads.net), as developers.facebook.com › Threads documents it
// (docs/platforms.md › Threads › The emulator names each page): the code exchange's short-lived token,
// the long-lived token exchange and its refresh (24 hours old at least), /me, posts in two steps (a
// container TEXT, IMAGE, VIDEO or CAROUSEL, processed IN_PROGRESS → FINISHED, then threads_publish),
// replies with reply_to_id, the account's threads, a post's fields, replies and conversation (public),
// insights (owner only), a reply hidden or shown (manage_reply), a post or reply deleted, Meta's error
// body and its rate limits.
import { emulatorRouter } from "../emulator";
import { commentRoutes } from "./comments";
import { format, unknownPaths } from "./errors";
import { mediaRoutes } from "./media";
import { publishRoutes } from "./publish";
import { readRoutes } from "./read";
import { tokenRoutes } from "./token";

export const threadsEmulator = emulatorRouter(format);

tokenRoutes(threadsEmulator);
mediaRoutes(threadsEmulator);
readRoutes(threadsEmulator);
publishRoutes(threadsEmulator);
commentRoutes(threadsEmulator);
// The Graph API's catch-all answers last.
unknownPaths(threadsEmulator);
