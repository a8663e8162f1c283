// The sandbox's emulator of the X API v2 (docs.x.com), mounted at /sandbox/twitter: every call the real
// X adapter (src/platforms/twitter/) makes, on X's own paths, methods, bodies and error format (errors.ts),
// each answer with X's rate-limit headers. OAuth (token.ts), posts and the timeline (publish.ts), media
// uploads (media.ts), lookups and the conversation search (read.ts), hiding and deleting replies
// (comments.ts); what X enforces in rules.ts.
import type { Context } from "hono";
import type { BareEnv } from "../../http/env";
import { sandboxAccountRoutes } from "../account-routes";
import { emulate, emulatorRouter } from "../emulator";
import { deleteTweet, hideReply } from "./comments";
import { limited, xError } from "./errors";
import { append, finalize, initialize, status } from "./media";
import { createTweet, userTimeline } from "./publish";
import { lookupTweet, searchRecent } from "./read";
import { me, revoke } from "./token";

type Ctx = Context<BareEnv>;

const x = (c: Ctx) => emulate(c, "twitter");
const query = (c: Ctx) => new URL(c.req.url).searchParams;

export const twitterEmulator = emulatorRouter(xError);
twitterEmulator
  .get("/2/users/me", async (c) => limited(75, await me(x(c), query(c))))
  .post("/2/oauth2/revoke", (c) => revoke(x(c), c.req.header("authorization")))
  .post("/2/tweets", async (c) => limited(100, await createTweet(x(c))))
  .put("/2/tweets/:id/hidden", async (c) => limited(50, c.json(await hideReply(x(c), c.req.param("id")))))
  .delete("/2/tweets/:id", async (c) => limited(50, c.json(await deleteTweet(x(c), c.req.param("id")))))
  .get("/2/tweets/search/recent", async (c) => limited(300, c.json(await searchRecent(x(c), query(c)))))
  .get("/2/tweets/:id", async (c) =>
    limited(900, c.json(await lookupTweet(x(c), c.req.param("id"), query(c)))),
  )
  .get("/2/users/:id/tweets", async (c) =>
    limited(900, c.json(await userTimeline(x(c), c.req.param("id"), query(c)))),
  )
  .post("/2/media/upload/initialize", async (c) => limited(500, c.json(await initialize(x(c)))))
  .post("/2/media/upload/:id/append", async (c) =>
    limited(500, c.json(await append(x(c), c.req.raw, c.req.param("id")))),
  )
  .post("/2/media/upload/:id/finalize", async (c) =>
    limited(500, c.json(await finalize(x(c), c.req.param("id")))),
  )
  .get("/2/media/upload", async (c) => limited(500, c.json(await status(x(c), query(c)))))
  // x.com/<handle>/status/<id>, where the adapter says a post can be seen: the sandbox's page of the post
  // (its JSON with `Accept: application/json`), whatever the handle, as x.com shows it.
  .get("/:handle/status/:id", (c) =>
    sandboxAccountRoutes.fetch(
      new Request(`${new URL(c.req.url).origin}/twitter/posts/${encodeURIComponent(c.req.param("id"))}`, {
        headers: c.req.raw.headers,
      }),
      c.env,
    ),
  );
