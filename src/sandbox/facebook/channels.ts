// A user's Pages as the emulator answers them: GET /me/accounts, each Page with its own Page token
// (Pages API › Get Started; Page › tasks), and whether a caller acts as a Page or as the user who
// manages it (a Page token, a user token).
import type { Caller, Emulated } from "../emulator";
import { fieldNames, paged, pick } from "./rules";
import { callerOf, type GraphCall, paramsOf } from "./token";

/** What a Page grants the user who manages it fully (Page › tasks). */
const PAGE_TASKS = ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"];

/** What a node id names for this caller: its own Page (a Page token), or a Page it manages (a user token). */
export async function pageOf(e: Emulated, caller: Caller, pageId: string) {
  if ((await e.platformId(caller.handle)) === pageId) return { handle: caller.handle, asPage: true };
  const managed = (await e.channels(caller.handle)).find((channel) => channel.id === pageId);
  return managed ? { handle: managed.handle, asPage: false } : null;
}

/** Whether the caller is the post's Page, or the user who manages it. */
export async function owns(e: Emulated, caller: Caller, handle: string) {
  if (caller.handle === handle) return true;
  return (await e.channels(caller.handle)).some((channel) => channel.handle === handle);
}

/** GET /me/accounts: the Pages the user manages, each with its Page token (Pages API › Get Started). */
export async function accounts(call: GraphCall) {
  const { e } = call;
  const params = await paramsOf(call);
  const caller = await callerOf(e, params);
  const names = fieldNames(params.get("fields") ?? "id,name,access_token,category,tasks");
  const pages = (await e.channels(caller.handle, caller.scopes)).map((channel) =>
    pick(
      {
        id: channel.id,
        name: channel.name,
        username: channel.handle,
        access_token: channel.accessToken,
        category: "Brand",
        category_list: [{ id: "1605186416478696", name: "Brand" }],
        tasks: PAGE_TASKS,
      },
      names,
    ),
  );
  return Response.json(paged(pages, params, call.req.url));
}
