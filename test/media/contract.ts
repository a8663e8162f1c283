// Route contracts of /api/v1/media (test/support/contract.ts). The signed link GET /media/{id} takes
// no API key, so it has no contract here; links.test.ts checks its answers against the document.
import { expect } from "vitest";
import type { RouteContract, Tenant } from "../support/contract";
import { file, form, pngBytes, upload } from "./support";

/** A tiny PNG (its signature is what the upload checks) filed in `workspaceId`. */
const pngForm = (workspaceId: number) =>
  form([
    ["workspace_id", String(workspaceId)],
    ["file", file(pngBytes(64), "tiny.png", "image/png")],
  ]);

const newMedia = async (t: Tenant) => {
  const res = await upload(t.key, [
    ["workspace_id", String(t.workspace.id)],
    ["file", file(pngBytes(64), "tiny.png", "image/png")],
  ]);
  expect(res.status).toBe(201);
  return res.body.id as number;
};

// The single-label host is refused by the SSRF guard before any fetch, so the import answers 200
// without touching the network (import.test.ts covers imports that store items, with fake origins).
const SKIPPED_URL = "http://localhost/contract.png";

export const mediaContracts: RouteContract[] = [
  {
    method: "POST",
    route: "/api/v1/media/upload/url",
    auth: "api",
    ability: "posts",
    jsonBody: true,
    request: (t) => ({
      path: "/api/v1/media/upload/url",
      body: { workspace_id: t.workspace.id, urls: [SKIPPED_URL] },
    }),
    foreign: (victim) => ({
      path: "/api/v1/media/upload/url",
      body: { workspace_id: victim.workspace.id, urls: [SKIPPED_URL] },
    }),
    status: 200,
    budget: { db: 2, gate: 1, hops: 3 },
  },
  {
    method: "POST",
    route: "/api/v1/media/upload",
    auth: "api",
    ability: "posts",
    // multipart/form-data: the body is a FormData, which `call` must send as it is.
    jsonBody: false,
    request: (t) => ({ path: "/api/v1/media/upload", body: pngForm(t.workspace.id) }),
    foreign: (victim) => ({ path: "/api/v1/media/upload", body: pngForm(victim.workspace.id) }),
    status: 201,
    budget: { db: 2, gate: 1, hops: 3 },
  },
  {
    method: "GET",
    route: "/api/v1/media",
    auth: "api",
    ability: "posts",
    request: async (t) => {
      await newMedia(t);
      return { path: `/api/v1/media?workspace_id=${t.workspace.id}` };
    },
    foreign: (victim) => ({ path: `/api/v1/media?workspace_id=${victim.workspace.id}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 1 },
  },
  {
    method: "DELETE",
    route: "/api/v1/media/{id}",
    auth: "api",
    ability: "posts",
    request: async (t) => ({ path: `/api/v1/media/${await newMedia(t)}` }),
    foreign: async (victim) => ({ path: `/api/v1/media/${await newMedia(victim)}` }),
    status: 200,
    budget: { db: 1, gate: 1, hops: 2 },
  },
];
