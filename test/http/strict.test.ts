// ARCHITECTURE "The request path", point 4: a field a body does not know, at any depth, is a 422 naming
// it (never silently dropped), and a known path with a method it does not serve is a 405 with `Allow`.
import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { pngBytes } from "../media/support";
import { ADMIN_TOKEN, admin, call } from "../support/client";
import { createTenant } from "../support/seed";

type Operation = { requestBody?: { content?: Record<string, unknown> } };

/** Every documented operation taking a JSON body, as [METHOD, path with its ids filled in]. */
async function jsonBodyRoutes(document: string) {
  const doc = (await call("GET", document)).body as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.requestBody?.content?.["application/json"] !== undefined)
      .map(
        ([method, operation]) =>
          [method.toUpperCase(), path.replaceAll(/\{[^}]+\}/g, "1"), operation] as const,
      ),
  );
}

describe("unknown body fields", () => {
  it("are a 422 naming each of them on every route that takes a JSON body", async () => {
    const t = await createTenant();
    // The delegation endpoint wants a key with a signing secret before it reads the body.
    expect((await admin("POST", `/api-keys/${t.keyId}/signing-secret`)).status).toBeLessThan(300);
    const routes = [
      ...(await jsonBodyRoutes("/openapi.json")),
      ...(await jsonBodyRoutes("/admin/openapi.json")),
    ];
    expect(routes.length).toBeGreaterThan(15);
    const answers = await Promise.all(
      routes.map(async ([method, path]) => {
        const key = path.startsWith("/admin/") ? ADMIN_TOKEN : t.key;
        const res = await call(method, path, { key, body: { publishNow: true, not_a_field: 1 } });
        return { route: `${method} ${path}`, status: res.status, errors: res.body.errors ?? {} };
      }),
    );
    for (const answer of answers) {
      expect(answer.status, answer.route).toBe(422);
      expect(answer.errors.publishNow, answer.route).toEqual(["The publish now field is not allowed."]);
      expect(answer.errors.not_a_field, answer.route).toEqual(["The not a field field is not allowed."]);
    }
  });

  it("refuses a misspelt publish_now on create, the dry run and update instead of making a draft", async () => {
    const t = await createTenant();
    const body = { workspace_id: t.workspace.id, accounts: [t.accounts[0]!.id], content: [{ text: "Hi" }] };
    const create = await call("POST", "/api/v1/posts", { key: t.key, body: { ...body, publishNow: true } });
    expect(create.status).toBe(422);
    expect(create.body).toEqual({
      message: "The publish now field is not allowed.",
      errors: { publishNow: ["The publish now field is not allowed."] },
    });
    const dryRun = await call("POST", "/api/v1/posts/validate", {
      key: t.key,
      body: { ...body, publishNow: true },
    });
    expect(dryRun.status).toBe(422);
    expect(dryRun.body.errors).toEqual({ publishNow: ["The publish now field is not allowed."] });
    const created = await call("POST", "/api/v1/posts", { key: t.key, body });
    expect(created.status).toBe(201);
    const update = await call("PUT", `/api/v1/posts/${created.body.id}`, {
      key: t.key,
      body: { publishNow: true },
    });
    expect(update.status).toBe(422);
    expect(update.body.errors).toEqual({ publishNow: ["The publish now field is not allowed."] });
  });

  it("names each unknown nested field on its own, at any depth", async () => {
    const t = await createTenant();
    const res = await call("POST", "/api/v1/posts", {
      key: t.key,
      body: {
        workspace_id: t.workspace.id,
        accounts: [t.accounts[0]!.id],
        content: [{ text: "Hi", foo: 1, bar: 2 }],
        auto_plug: { text: "More", threshold: 5, extra: true },
        settings: { twitter: { colour: "red" } },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      "content.0.foo": ["The content.0.foo field is not allowed."],
      "content.0.bar": ["The content.0.bar field is not allowed."],
      "auto_plug.extra": ["The auto plug.extra field is not allowed."],
      "settings.twitter.colour": ["The settings.twitter.colour field is not allowed."],
    });
  });
});

describe("unknown upload form parts", () => {
  it("are a 422 naming them, not skipped", async () => {
    const t = await createTenant();
    const form = new FormData();
    form.append("workspace_id", String(t.workspace.id));
    form.append("alt_text", "A sunset");
    form.append("file", new Blob([pngBytes()], { type: "image/png" }), "a.png");
    const res = await call("POST", "/api/v1/media/upload", { key: t.key, body: form });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ alt_text: ["The alt text field is not allowed."] });
  });
});

describe("a known path with a method it does not serve", () => {
  it("is a 405 naming the methods it serves, in Allow too", async () => {
    const t = await createTenant();
    const list = await call("PATCH", "/api/v1/posts", { key: t.key });
    expect(list.status).toBe(405);
    expect(list.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(list.body).toEqual({
      message:
        "The PATCH method is not supported for route api/v1/posts. Supported methods: GET, HEAD, POST.",
    });
    const one = await call("POST", "/api/v1/posts/12", { key: t.key });
    expect(one.status).toBe(405);
    expect(one.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE");
    // A 405 is counted like any request of the key.
    expect(one.headers.get("x-ratelimit-remaining")).not.toBeNull();
    // Outside the API key gate too.
    const document = await call("POST", "/openapi.json");
    expect(document.status).toBe(405);
    expect(document.headers.get("allow")).toBe("GET, HEAD");
  });

  it("is a 401 without a key on /api/v1, as any request there is", async () => {
    const res = await call("PATCH", "/api/v1/posts");
    expect(res.status).toBe(401);
    expect(res.headers.get("allow")).toBeNull();
    expect(res.body).toEqual({ message: "Unauthenticated." });
  });

  it("is a 401 without the operator token, and a 404 while ADMIN_TOKEN is unset", async () => {
    const withToken = await call("DELETE", "/admin/v1/users", { key: ADMIN_TOKEN });
    expect(withToken.status).toBe(405);
    expect(withToken.headers.get("allow")).toBe("GET, HEAD, POST");
    expect((await call("DELETE", "/admin/v1/users", { key: "wrong" })).status).toBe(401);
    const request = new Request("https://api.example.test/admin/v1/users", { method: "DELETE" });
    const res = await worker.fetch(request, { ...env, ADMIN_TOKEN: "" }, createExecutionContext());
    expect(res.status).toBe(404);
    expect(res.headers.get("allow")).toBeNull();
  });

  it("leaves an unknown path a 404", async () => {
    const t = await createTenant();
    for (const path of ["/api/v1/nothing", "/api/v1/posts/1/nothing", "/nothing"]) {
      const res = await call("PATCH", path, { key: t.key });
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({ message: "Route not found." });
    }
  });
});
