// What the Threads and TikTok end-to-end tests share beyond the harness: a media upload through the
// API's real upload route (the harness's uploadMedia posts to /api/v1/media, which has no POST route).
import { expect } from "vitest";
import { file, upload } from "../../media/support";
import type { Connected } from "../live/harness";

/** Stores a file in the connected tenant's library through POST /api/v1/media/upload; its id. */
export async function uploadFile(connected: Connected, name: string, mime: string, bytes: Uint8Array) {
  const res = await upload(connected.tenant.key, [
    ["workspace_id", String(connected.tenant.workspace.id)],
    ["file", file(bytes, name, mime)],
  ]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}
