// The boards a sandbox Pinterest user owns: two, with stable numeric ids cut from (handle, board), so a
// test or a person can name one in `settings.pinterest.board_id` (GET /v5/boards lists them with the
// user's token). A Pin goes only to a board of the token's user, as on Pinterest.
import { utf8 } from "../../lib/encoding";
import { digits } from "../../platforms/sandbox/ids";

export type SandboxBoard = { id: string; name: string; description: string; privacy: "PUBLIC" | "SECRET" };

const SHAPES = [
  { slug: "ideas", name: (handle: string) => `${handle}'s ideas`, privacy: "PUBLIC" as const },
  { slug: "drafts", name: () => "Drafts", privacy: "SECRET" as const },
];

/** The board id of `slug` for `handle`: 18 digits, the same every time. */
export async function boardId(handle: string, slug: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", utf8(`sandbox-board:pinterest:${handle}:${slug}`));
  return digits(new Uint8Array(digest), 18);
}

/** Every board of `handle`, its public board first. */
export async function sandboxBoards(handle: string): Promise<SandboxBoard[]> {
  return Promise.all(
    SHAPES.map(async (shape) => ({
      id: await boardId(handle, shape.slug),
      name: shape.name(handle),
      description: "",
      privacy: shape.privacy,
    })),
  );
}
