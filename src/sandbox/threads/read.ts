import {
  type Caller,
  type Emulated,
  emulate,
  type emulatorRouter,
  type LedgerPost,
  refuse,
} from "../emulator";
import { withStates } from "../meta-comments";
import { graphTime, page, pick, required, VERSION } from "../meta-graph";
import { knownPost, threadObject } from "./publish";
import { METRICS } from "./rules";

/** The emulator's router, as its route groups extend it. */
type Router = ReturnType<typeof emulatorRouter>;

/** Replies, conversation and insights. */
export function readRoutes(app: Router): void {
  app
    .get(`/${VERSION}/:id/replies`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      const post = await knownPost(emu, c.req.param("id"));
      const replies = await repliesOf(emu, post, caller, false);
      return c.json(
        page(
          c.req.url,
          ordered(c.req.query("reverse"), replies).map((reply) => pick(reply, c.req.query("fields"), [])),
        ),
      );
    })
    .get(`/${VERSION}/:id/conversation`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      const post = await knownPost(emu, c.req.param("id"));
      const replies = await repliesOf(emu, post, caller, true);
      return c.json(
        page(
          c.req.url,
          ordered(c.req.query("reverse"), replies).map((reply) => pick(reply, c.req.query("fields"), [])),
        ),
      );
    })
    .get(`/${VERSION}/:id/insights`, async (c) => {
      const emu = emulate(c, "threads");
      const caller = await emu.caller();
      const id = c.req.param("id");
      const post = await knownPost(emu, id);
      if (post.handle !== caller.handle)
        return refuse(400, "forbidden", "Application does not have permission for this action", { code: 10 });
      const metric = c.req.query("metric");
      if (!metric) return required("metric");
      const names = metric.split(",").map((name) => name.trim());
      names.forEach((name, index) => {
        if (!(METRICS as readonly string[]).includes(name))
          refuse(
            400,
            "invalid_request",
            `(#100) metric[${index}] must be one of the following values: ${METRICS.join(", ")}`,
          );
      });
      const m = (await emu.metrics(id))!;
      const reposts = Math.floor(m.shares / 2);
      const values: Record<string, number> = {
        views: m.impressions,
        likes: m.likes,
        replies: m.comments + (await emu.replies(id)).length,
        reposts,
        quotes: m.quotes,
        shares: m.shares - reposts,
      };
      return c.json({
        data: names.map((name) => ({
          name,
          period: "lifetime",
          values: [{ value: values[name] ?? 0 }],
          title: name[0]!.toUpperCase() + name.slice(1),
          description: `The number of ${name} of the post.`,
          id: `${id}/insights/${name}/lifetime`,
        })),
      });
    });
}

type Reply = Record<string, unknown> & { at: number };

/** The replies to a post (and, for a conversation, theirs, at any depth): everyone's and the account's. */
async function repliesOf(emu: Emulated, post: LedgerPost, viewer: Caller, deep: boolean): Promise<Reply[]> {
  const out: Reply[] = [];
  const visit = async (parent: LedgerPost, depth: number) => {
    const comments = (await emu.comments(parent.id)) ?? [];
    for (const comment of comments) {
      // A follower's answer to a comment is a reply of that reply: in the conversation, not the top level.
      if (comment.parent_id !== null && !deep) continue;
      out.push({
        id: comment.id,
        text: comment.text,
        username: comment.author.username,
        permalink: `${emu.postUrl(parent.id)}?reply=${comment.id}`,
        timestamp: graphTime(comment.created_at),
        media_type: "TEXT_POST",
        is_reply: true,
        is_reply_owned_by_me: comment.author.username === viewer.handle,
        has_replies: comments.some((other) => other.parent_id === comment.id),
        root_post: { id: post.id },
        replied_to: { id: comment.parent_id ?? parent.id },
        hide_status: comment.hidden ? "HIDDEN" : "NOT_HUSHED",
        at: comment.created_at,
      });
    }
    for (const reply of await emu.replies(parent.id)) {
      out.push({
        ...(await threadObject(emu, reply, viewer)),
        root_post: { id: post.id },
        replied_to: { id: parent.id },
        hide_status: "NOT_HUSHED",
        at: Date.parse(reply.published_at),
      });
      if (deep && depth < 20) await visit(reply, depth + 1);
    }
  };
  await visit(post, 0);
  // What the account did since: hidden or shown again, deleted, and which reply its own reply answers
  // (a reply to a reply is not on the top level).
  const shown = (await withStates(emu, out as Array<Reply & { id: string }>)).map(({ comment, state }) => ({
    ...comment,
    ...(state.hidden === undefined ? {} : { hide_status: state.hidden ? "HIDDEN" : "UNHUSHED" }),
    ...(state.parent ? { replied_to: { id: state.parent } } : {}),
  }));
  // Hiding a top-level reply hides its nested replies with it (Reply Management › Hide Replies).
  const byId = new Map(shown.map((reply) => [reply.id, reply]));
  const topOf = (reply: Reply & { id: string }): Reply & { id: string } => {
    let at = reply;
    for (let hops = 0; hops < 20; hops++) {
      const parent = byId.get((at.replied_to as { id: string }).id);
      if (!parent) return at;
      at = parent;
    }
    return at;
  };
  const cascaded = shown.map((reply) =>
    topOf(reply).hide_status === "HIDDEN" ? { ...reply, hide_status: "HIDDEN" } : reply,
  );
  return deep ? cascaded : cascaded.filter((reply) => (reply.replied_to as { id: string }).id === post.id);
}

/** Newest first unless `reverse=false` asks for oldest first. */
function ordered(reverse: string | undefined, replies: Reply[]) {
  const oldestFirst = reverse === "false";
  return replies
    .sort((a, b) => (oldestFirst ? a.at - b.at : b.at - a.at))
    .map(({ at: _at, ...reply }) => reply as Record<string, unknown>);
}
