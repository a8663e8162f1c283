// Upload from a file, the paginated list, and delete: the media library endpoints beyond URL import.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { expectSameBytes } from "../support/bytes";
import { call, serverTiming } from "../support/client";
import { insertMedia } from "../support/db";
import { createKey, createTenant, createWorkspace } from "../support/seed";
import {
  bytesOf,
  expectMediaItem,
  type Field,
  fetchLink,
  file,
  form,
  insertProcessing,
  jpegBytes,
  mediaRow,
  mp4Bytes,
  pngBytes,
  upload,
} from "./support";

const storedKeys = async () => (await env.MEDIA.list({ prefix: "media/" })).objects.map((o) => o.key);

describe("POST /api/v1/media/upload", () => {
  it("stores an image with its fields first: 201 with a ready item whose link serves the same bytes", async () => {
    const tenant = await createTenant();
    const png = pngBytes(30_000);
    const res = await upload(tenant.key, [
      ["workspace_id", String(tenant.workspace.id)],
      ["alt", "  A sunset over the bay  "],
      ["file", file(png, "Sunset Bay.png", "image/png")],
    ]);
    expect(res.status).toBe(201);
    expectMediaItem(res.body);
    expect(res.body).toMatchObject({
      name: "Sunset Bay.png",
      mime_type: "image/png",
      type: "image",
      size: 30_000,
      is_processing: false,
      progress: 100,
      alt: "A sunset over the bay",
      is_reference: false,
      ai_generated_id: null,
    });
    const served = await fetchLink(res.body.url);
    expect(served.headers.get("content-type")).toBe("image/png");
    await expectSameBytes(await bytesOf(served), png);
  });

  it("types the file by its bytes (not its name or declared type) and streams a large one in parts", async () => {
    const tenant = await createTenant();
    const folder = await call("POST", "/api/v1/folders", {
      key: tenant.key,
      body: { workspace_id: tenant.workspace.id, name: "Videos" },
    });
    const video = mp4Bytes(6 * 1024 * 1024 + 17);
    const res = await upload(tenant.key, [
      ["workspace_id", String(tenant.workspace.id)],
      ["folder_id", String(folder.body.id)],
      ["file", file(video, "clip", "text/plain")],
      ["alt", "A clip"],
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "clip.mp4",
      mime_type: "video/mp4",
      type: "video",
      size: video.byteLength,
    });
    expect((await mediaRow(res.body.id))!.folder_id).toBe(folder.body.id);
    await expectSameBytes(await bytesOf(await fetchLink(res.body.url)), video);
  });

  it("422 for a file that is not an image or a video, and leaves nothing in R2", async () => {
    const tenant = await createTenant();
    const before = await storedKeys();
    for (const [bytes, name] of [
      [new TextEncoder().encode("<html><script>alert(1)</script></html>"), "evil.png"],
      [new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), "logo.svg"],
      [new Uint8Array(0), "empty.jpg"],
    ] as const) {
      const res = await upload(tenant.key, [
        ["workspace_id", String(tenant.workspace.id)],
        ["file", file(bytes, name, "image/png")],
      ]);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["file"]);
      expect(res.body.errors.file[0]).toMatch(/^The file must be an image or a video/);
    }
    expect(await storedKeys()).toEqual(before);
  });

  it("422 for a file over the cap for its type, aborting the upload", async () => {
    const tenant = await createTenant();
    const before = await storedKeys();
    const body = form([
      ["workspace_id", String(tenant.workspace.id)],
      ["file", file(jpegBytes(50_000), "big.jpg")],
    ]);
    const res = await app.request(
      "https://api.example.test/api/v1/media/upload",
      { method: "POST", headers: { authorization: `Bearer ${tenant.key}` }, body },
      { ...env, MEDIA_MAX_IMAGE_BYTES: "20480" },
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: "The file must not be greater than 20 kilobytes.",
      errors: { file: ["The file must not be greater than 20 kilobytes."] },
    });
    expect(await storedKeys()).toEqual(before);
  });

  it("404 for another user's workspace (422 when the fields come after the file), leaving nothing stored", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const before = await storedKeys();
    const before_ = await upload(tenant.key, [
      ["workspace_id", String(other.workspace.id)],
      ["file", file(pngBytes(), "a.png")],
    ]);
    expect(before_.status).toBe(404);
    expect(before_.body).toEqual({ message: "Workspace not found." });
    const after = await upload(tenant.key, [
      ["file", file(pngBytes(), "a.png")],
      ["workspace_id", String(other.workspace.id)],
    ]);
    expect(after.status).toBe(422);
    expect(after.body.errors).toEqual({
      workspace_id: ["The workspace id field must come before the file."],
    });
    expect(await storedKeys()).toEqual(before);
  });

  it("422 for a folder of another workspace, a missing file, missing or malformed fields, a text 'file'", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const theirs = await call("POST", "/api/v1/folders", {
      key: other.key,
      body: { workspace_id: other.workspace.id, name: "Theirs" },
    });
    const ws = String(tenant.workspace.id);
    const png = () => file(pngBytes(), "a.png");
    const cases: Array<[Field[], Record<string, string[]>]> = [
      [
        [
          ["workspace_id", ws],
          ["folder_id", String(theirs.body.id)],
          ["file", png()],
        ],
        { folder_id: ["The selected folder id is invalid."] },
      ],
      [[["workspace_id", ws]], { file: ["The file field is required."] }],
      [[["file", png()]], { workspace_id: ["The workspace id field must come before the file."] }],
      [
        [
          ["workspace_id", "abc"],
          ["file", png()],
        ],
        { workspace_id: ["The workspace id field must be a positive integer."] },
      ],
      [
        [
          ["workspace_id", ws],
          ["file", "not a file"],
        ],
        { file: ["The file field must be a file."] },
      ],
      [
        [
          ["workspace_id", ws],
          ["file", png()],
          ["file", png()],
        ],
        { file: ["Only one file can be uploaded at a time."] },
      ],
      [
        [
          ["workspace_id", ws],
          ["alt", "x".repeat(1001)],
          ["file", png()],
        ],
        { alt: ["The alt field must not be greater than 1000 characters."] },
      ],
    ];
    const before = await storedKeys();
    for (const [fields, errors] of cases) {
      const res = await upload(tenant.key, fields);
      expect(res.status, JSON.stringify(errors)).toBe(422);
      expect(res.body.errors).toEqual(errors);
    }
    expect(await storedKeys()).toEqual(before);
  });

  it("415 for a body that is not multipart/form-data, 400 for a broken one, 401 and 403 as everywhere", async () => {
    const tenant = await createTenant();
    const json = await call("POST", "/api/v1/media/upload", { key: tenant.key, body: { workspace_id: 1 } });
    expect(json.status).toBe(415);
    expect(json.body).toEqual({ message: "The request body must be sent as multipart/form-data." });
    const broken = await call("POST", "/api/v1/media/upload", {
      key: tenant.key,
      headers: { "content-type": "multipart/form-data; boundary=xyz" },
      rawBody: '--xyz\r\nContent-Disposition: form-data; name="workspace_id"\r\n\r\n1',
    });
    expect(broken.status).toBe(400);
    expect(broken.body).toEqual({ message: "Malformed multipart/form-data body." });
    expect((await upload("", [["workspace_id", "1"]])).status).toBe(401);
    const limited = await createKey(tenant.user.id, ["workspaces"]);
    expect((await upload(limited.key, [["workspace_id", "1"]])).status).toBe(403);
  });
});

describe("GET /api/v1/media", () => {
  it("lists the user's items newest first as a Laravel paginator, filtered by workspace and folder", async () => {
    const tenant = await createTenant();
    const second = await createWorkspace(tenant.user.id);
    const other = await createTenant();
    const folder = await call("POST", "/api/v1/folders", {
      key: tenant.key,
      body: { workspace_id: tenant.workspace.id, name: "F" },
    });
    const made: number[] = [];
    for (const [workspace, folderId] of [
      [tenant.workspace.id, null],
      [tenant.workspace.id, folder.body.id],
      [second.id, null],
    ] as const) {
      const fields: Field[] = [["workspace_id", String(workspace)]];
      if (folderId) fields.push(["folder_id", String(folderId)]);
      fields.push(["file", file(pngBytes(), "a.png")]);
      made.push((await upload(tenant.key, fields)).body.id);
    }
    await upload(other.key, [
      ["workspace_id", String(other.workspace.id)],
      ["file", file(pngBytes(), "x.png")],
    ]);

    const page1 = await call("GET", "/api/v1/media?per_page=2", { key: tenant.key });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((m: any) => m.id)).toEqual([made[2], made[1]]);
    for (const item of page1.body.data) expectMediaItem(item);
    expect(page1.body).toMatchObject({
      current_page: 1,
      last_page: 2,
      per_page: 2,
      total: 3,
      from: 1,
      to: 2,
    });
    expect(page1.body.links.map((l: any) => [l.label, l.active])).toEqual([
      ["&laquo; Previous", false],
      ["1", true],
      ["2", false],
      ["Next &raquo;", false],
    ]);
    // The next page's URL says where it starts (before_id: the page's last item).
    expect(page1.body.next_page_url).toBe(
      `https://api.example.test/api/v1/media?per_page=2&page=2&before_id=${made[1]}`,
    );
    const timing = serverTiming(page1.headers);
    expect(timing.dbTrips).toBeLessThanOrEqual(2);
    expect(timing.gateCalls).toBe(1);

    const page2 = await call("GET", "/api/v1/media?per_page=2&page=2", { key: tenant.key });
    expect(page2.body.data.map((m: any) => m.id)).toEqual([made[0]]);
    // Followed, it is the same page; an item added meanwhile does not push one back onto it.
    const added = await insertMedia(tenant.workspace.id);
    const followed = await call("GET", page1.body.next_page_url.replace("https://api.example.test", ""), {
      key: tenant.key,
    });
    expect(followed.body.data.map((m: any) => m.id)).toEqual([made[0]]);
    expect(followed.body.total).toBe(4);
    const shifted = await call("GET", "/api/v1/media?per_page=2&page=2", { key: tenant.key });
    expect(shifted.body.data.map((m: any) => m.id)).toEqual([made[1], made[0]]);
    const bad = await call("GET", "/api/v1/media?before_id=0", { key: tenant.key });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(["before_id"]);

    const inFirst = await call("GET", `/api/v1/media?workspace_id=${tenant.workspace.id}`, {
      key: tenant.key,
    });
    expect(inFirst.body.data.map((m: any) => m.id)).toEqual([added, made[1], made[0]]);
    expect(inFirst.body.per_page).toBe(100);
    const inFolder = await call(
      "GET",
      `/api/v1/media?workspace_id=${tenant.workspace.id}&folder_id=${folder.body.id}`,
      {
        key: tenant.key,
      },
    );
    expect(inFolder.body.data.map((m: any) => m.id)).toEqual([made[1]]);
  });

  it("404 for another user's workspace, 422 for bad query values, 401/403 as everywhere", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const foreign = await call("GET", `/api/v1/media?workspace_id=${other.workspace.id}`, {
      key: tenant.key,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Workspace not found." });
    for (const query of [
      "per_page=101",
      "per_page=0",
      "page=0",
      "page=x",
      "workspace_id=abc",
      "folder_id=-2",
    ]) {
      const res = await call("GET", `/api/v1/media?${query}`, { key: tenant.key });
      expect(res.status, query).toBe(422);
    }
    expect((await call("GET", "/api/v1/media")).status).toBe(401);
    const limited = await createKey(tenant.user.id, ["accounts"]);
    expect((await call("GET", "/api/v1/media", { key: limited.key })).status).toBe(403);
  });
});

describe("DELETE /api/v1/media/{id}", () => {
  it("deletes the item and its R2 object; the link stops working; a second delete is 404", async () => {
    const tenant = await createTenant();
    const created = await upload(tenant.key, [
      ["workspace_id", String(tenant.workspace.id)],
      ["file", file(pngBytes(), "a.png")],
    ]);
    const key = (await mediaRow(created.body.id))!.r2_key;
    expect(await env.MEDIA.head(key)).not.toBeNull();

    const res = await call("DELETE", `/api/v1/media/${created.body.id}`, { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Media deleted successfully." });
    expect(serverTiming(res.headers).dbTrips).toBeLessThanOrEqual(2);
    expect(await env.MEDIA.head(key)).toBeNull();
    expect(await mediaRow(created.body.id)).toBeNull();
    expect((await fetchLink(created.body.url)).status).toBe(404);

    const again = await call("DELETE", `/api/v1/media/${created.body.id}`, { key: tenant.key });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "Media not found." });
  });

  it("deletes an item still processing; 404 for another user's item (left intact); 422 for a non-numeric id", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const processing = await insertProcessing(tenant.workspace.id, "https://cdn.example.test/a.mp4");
    expect((await call("DELETE", `/api/v1/media/${processing.id}`, { key: tenant.key })).status).toBe(200);

    const theirs = await insertProcessing(other.workspace.id, "https://cdn.example.test/b.mp4");
    const foreign = await call("DELETE", `/api/v1/media/${theirs.id}`, { key: tenant.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Media not found." });
    expect(await mediaRow(theirs.id)).not.toBeNull();

    for (const id of ["abc", "1.5", "-1", "0"]) {
      const res = await call("DELETE", `/api/v1/media/${id}`, { key: tenant.key });
      expect(res.status, id).toBe(422);
      expect(res.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
    }
    expect((await call("DELETE", `/api/v1/media/${theirs.id}`)).status).toBe(401);
  });
});
