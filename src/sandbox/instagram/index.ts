// The emulator of the Instagram API with Instagram Login (graph.instagram.com, api.instagram.com), as
// developers.facebook.com › Instagram Platform documents it (docs/platforms.md › Instagram › The
// emulator names each page): the code exchange's short-lived token, the long-lived token exchange and
// its refresh (24 hours old at least), /me, content publishing in two steps (a media container from a
// public URL, processed IN_PROGRESS → FINISHED, then media_publish), the publishing quota, the account's
// media, a media's fields, insights (owner only) and comments, a reply under a comment, a comment hidden,
// shown or deleted, Meta's error body and its rate limits.
import { emulatorRouter } from "../emulator";
import { commentRoutes } from "./comments";
import { format, unknownPaths } from "./errors";
import { mediaRoutes } from "./media";
import { publishRoutes } from "./publish";
import { readRoutes } from "./read";
import { tokenRoutes } from "./token";

export const instagramEmulator = emulatorRouter(format);

tokenRoutes(instagramEmulator);
mediaRoutes(instagramEmulator);
publishRoutes(instagramEmulator);
readRoutes(instagramEmulator);
commentRoutes(instagramEmulator);
// The Graph API's catch-all answers last.
unknownPaths(instagramEmulator);
