// Bodies are capped before anything parses them (src/http/body-limit.ts): a huge urlencoded or multipart
// body on the delegation callback's form (no key needed) was parsed whole before its 400, at several
// times its size in memory, and a JSON route read a 90 MB field before its 422. Now a body over its cap
// is a 413, by its Content-Length before a byte is read, or counted as it streams and cut off there.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_BODY_MAX_BYTES, JSON_BODY_MAX_BYTES } from "../../src/http/body-limit";
import worker from "../../src/index";
import { file, pngBytes, upload } from "../media/support";
import { call, ORIGIN } from "../support/client";
import { createTenant } from "../support/seed";

const TOO_LARGE = { message: "The request body is too large." };
const MB = 1024 * 1024;

/**
 * A body made on demand, `chunk` bytes at a time, starting with `head` and padded with `a`; `pulled()`
 * says how many bytes the worker actually took from it.
 */
function streamedBody(total: number, head = "", chunk = 1024) {
  const start = new TextEncoder().encode(head);
  let produced = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (produced >= total) return controller.close();
        const size = Math.min(chunk, total - produced);
        const bytes = new Uint8Array(size).fill(0x61);
        if (produced < start.byteLength) bytes.set(start.subarray(produced, produced + size));
        produced += size;
        controller.enqueue(bytes);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => produced };
}

/** Sends a request straight to the worker's fetch handler, so the test sees what it reads of the body. */
async function send(
  method: string,
  path: string,
  body: ReadableStream<Uint8Array> | string,
  headers: Record<string, string>,
) {
  const request = new Request(`${ORIGIN}${path}`, { method, headers, body, duplex: "half" } as RequestInit);
  const response = await worker.fetch(request, env, createExecutionContext());
  const text = await response.text();
  const json = (response.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : text;
  return { status: response.status, body: json };
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const CALLBACK = "/api/oauth/delegate/callback";

describe("request bodies over their cap", () => {
  it("the callback form: a huge Content-Length is refused before a byte is read", async () => {
    const body = streamedBody(20 * MB, "flow=x&channel=");
    const res = await send("POST", CALLBACK, body.stream, {
      ...FORM,
      "content-length": String(20 * MB),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
    expect(body.pulled()).toBe(0);
  });

  it("the callback form: a chunked body is cut off at 16 KiB; one just under it is read", async () => {
    const over = streamedBody(20 * MB, "flow=x&channel=");
    const refused = await send("POST", CALLBACK, over.stream, FORM);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual(TOO_LARGE);
    expect(over.pulled()).toBeLessThanOrEqual(FORM_BODY_MAX_BYTES + 1024);

    const under = streamedBody(FORM_BODY_MAX_BYTES - 10, "flow=x&pad=");
    const read = await send("POST", CALLBACK, under.stream, FORM);
    // The form was read: the route answers its own page (no such flow), not a 413.
    expect(read.status).toBe(400);
    expect(String(read.body)).toContain("This choice does not belong to a connection request.");
  });

  it("the callback form: a large multipart body is refused too", async () => {
    const data = new FormData();
    data.append("flow", "x");
    data.append("channel", "x".repeat(FORM_BODY_MAX_BYTES));
    const res = await call("POST", CALLBACK, { rawBody: data });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
  });

  it("the sandbox's consent form answers 413 past 16 KiB", async () => {
    const res = await call("POST", "/sandbox/twitter/oauth/authorize", {
      rawBody: `decision=allow&handle=${"a".repeat(FORM_BODY_MAX_BYTES)}`,
      headers: FORM,
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
  });

  it("a JSON route: a huge Content-Length is refused before a byte is read", async () => {
    const t = await createTenant();
    const body = streamedBody(20 * MB, `{"workspace_id":${t.workspace.id},"color":"#112233","name":"`);
    const res = await send("POST", "/api/v1/labels", body.stream, {
      authorization: `Bearer ${t.key}`,
      "content-type": "application/json",
      "content-length": String(20 * MB),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(TOO_LARGE);
    expect(body.pulled()).toBe(0);
  });

  it("a JSON route: a chunked body is cut off at 1 MiB; one just under it is read", async () => {
    const t = await createTenant();
    const headers = { authorization: `Bearer ${t.key}`, "content-type": "application/json" };
    const head = `{"workspace_id":${t.workspace.id},"color":"#112233","name":"`;
    const over = streamedBody(20 * MB, head, 16 * 1024);
    const refused = await send("POST", "/api/v1/labels", over.stream, headers);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual(TOO_LARGE);
    expect(over.pulled()).toBeLessThanOrEqual(JSON_BODY_MAX_BYTES + 16 * 1024);

    // Padded with JSON whitespace: an unknown field would be a 422 (bodies are strict).
    const pad = " ".repeat(JSON_BODY_MAX_BYTES - 200);
    const json = `{"workspace_id":${t.workspace.id},"color":"#112233","name":"Near the cap"${pad}}`;
    expect(json.length).toBeLessThanOrEqual(JSON_BODY_MAX_BYTES);
    const encoded = new TextEncoder().encode(json);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < encoded.byteLength; at += 64 * 1024)
          controller.enqueue(encoded.subarray(at, at + 64 * 1024));
        controller.close();
      },
    });
    const created = await send("POST", "/api/v1/labels", chunked, headers);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.name).toBe("Near the cap");
  });

  it("an upload over 1 MiB is not capped by the JSON limit: it streams under its own caps", async () => {
    const t = await createTenant();
    const res = await upload(t.key, [
      ["workspace_id", String(t.workspace.id)],
      ["file", file(pngBytes(3 * MB), "big.png", "image/png")],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.size).toBe(3 * MB);
  });

  it("the document lists the 413 on every operation with a JSON body, and not on the upload", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { requestBody?: { content: object }; responses: object }>),
    );
    const json = operations.filter((op) => op.requestBody && "application/json" in op.requestBody.content);
    expect(json.length).toBeGreaterThan(10);
    for (const op of json) expect(Object.keys(op.responses)).toContain("413");
    const uploadOp = doc.paths["/api/v1/media/upload"].post;
    expect(Object.keys(uploadOp.responses)).not.toContain("413");
  });
});
