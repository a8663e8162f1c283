import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { documentedRoutes } from "../support/contract";
import { createTenant } from "../support/seed";

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

type Operation = {
  operationId?: string;
  security?: object[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
};
type Items = Record<string, Record<string, Operation>>;

/** Every operation of a document's paths (or webhooks), as `[METHOD path, operation]`. */
const operationsOf = (items: Items | undefined) =>
  Object.entries(items ?? {}).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
  );

const documents = async () => {
  const [publicAnswer, operatorAnswer] = [
    await call("GET", "/openapi.json"),
    await call("GET", "/admin/openapi.json"),
  ];
  expect(publicAnswer.status).toBe(200);
  expect(operatorAnswer.status).toBe(200);
  return { doc: publicAnswer.body, admin: operatorAnswer.body };
};

describe("GET /openapi.json and GET /admin/openapi.json", () => {
  it("are OpenAPI 3.1 documents of every route between them: the public API, and the operator API apart", async () => {
    const { doc, admin } = await documents();
    expect(doc.openapi).toBe("3.1.0");
    expect(admin.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://api.example.test" }]);
    expect(admin.servers).toEqual([{ url: "https://api.example.test" }]);
    const publicOps = operationsOf(doc.paths).map(([name]) => name);
    const operatorOps = operationsOf(admin.paths).map(([name]) => name);
    expect([...publicOps, ...operatorOps].sort()).toEqual(documentedRoutes().sort());
    expect(publicOps.filter((name) => name.includes(" /admin/"))).toEqual([]);
    expect(operatorOps.every((name) => name.includes(" /admin/v1/"))).toBe(true);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(["apiKey"]);
    expect(Object.keys(admin.components.securitySchemes)).toEqual(["adminToken"]);
    // Each keeps only the components it uses.
    expect(doc.components.schemas.IssuedApiKey).toBeUndefined();
    expect(admin.components.schemas.IssuedApiKey).toBeDefined();
    expect(admin.components.schemas.Post).toBeUndefined();
    expect(admin.webhooks).toBeUndefined();

    const list = doc.paths["/api/v1/labels"].get;
    expect(list.security).toEqual([{ apiKey: [] }]);
    expect(list["x-required-ability"]).toBe("labels");
    expect(Object.keys(list.responses).sort()).toEqual(["200", "401", "403", "404", "422", "429"]);
    expect(Object.keys(list.responses["429"].headers).sort()).toEqual([
      "Retry-After",
      "Server-Timing",
      "X-D1-Bookmark",
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
    ]);
    expect(doc.components.schemas.ValidationError).toBeDefined();
    expect(doc.components.schemas.Label.additionalProperties).toBe(false);
  });

  it("name every operation and webhook event: camelCase, unique across both documents", async () => {
    const { doc, admin } = await documents();
    const all = [...operationsOf(doc.paths), ...operationsOf(doc.webhooks), ...operationsOf(admin.paths)];
    const missing = all.filter(([, operation]) => !operation.operationId).map(([name]) => name);
    expect(missing).toEqual([]);
    const ids = all.map(([, operation]) => operation.operationId as string);
    expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // Stable: these names are methods in integrators' generated clients.
    expect(doc.paths["/api/v1/posts"].get.operationId).toBe("listPosts");
    expect(doc.paths["/api/v1/posts"].post.operationId).toBe("createPost");
    expect(doc.paths["/api/v1/analytics/posts/{id}"].get.operationId).toBe("getPostAnalytics");
    expect(doc.webhooks["post.published"].post.operationId).toBe("postPublishedEvent");
  });

  it("declare security on every operation: none on the signed media link and the webhook events", async () => {
    const { doc, admin } = await documents();
    const all = [...operationsOf(doc.paths), ...operationsOf(doc.webhooks), ...operationsOf(admin.paths)];
    expect(all.filter(([, operation]) => !Array.isArray(operation.security)).map(([name]) => name)).toEqual(
      [],
    );
    const open = all.filter(([, operation]) => operation.security?.length === 0).map(([name]) => name);
    expect(open.sort()).toEqual(
      ["GET /media/{id}", ...operationsOf(doc.webhooks).map(([name]) => name)].sort(),
    );
  });

  it("describe every tag, name a contact and a license, and link to the guide served beside /docs", async () => {
    const { doc } = await documents();
    const used = new Set(
      [...operationsOf(doc.paths), ...operationsOf(doc.webhooks)].flatMap(
        ([, operation]) => (operation as { tags?: string[] }).tags ?? [],
      ),
    );
    expect(doc.tags.map((tag: { name: string }) => tag.name).sort()).toEqual([...used].sort());
    expect(doc.tags.every((tag: { description?: string }) => (tag.description ?? "").length > 10)).toBe(true);
    expect(doc.info.contact.url).toBe("https://api.example.test/docs/guide");
    expect(doc.info.license.name).toBeTruthy();
    expect(doc.info.description).toContain("(https://api.example.test/docs/guide)");
    const guide = await call("GET", "/docs/guide");
    expect(guide.status).toBe(200);
    expect(guide.headers.get("content-type")).toContain("text/markdown");
    expect(guide.body).toContain("social-publishing-api/client");
    const page = await call("GET", "/docs");
    expect(page.body).toContain('href="/docs/guide"');
  });

  it("declare the headers every /api/v1 answer carries, and one name per path parameter", async () => {
    const { doc } = await documents();
    for (const [name, operation] of operationsOf(doc.paths)) {
      if (!name.includes(" /api/")) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const headers = Object.keys(response.headers ?? {});
        expect(headers, `${name} ${status}`).toEqual(
          expect.arrayContaining(["Server-Timing", "X-D1-Bookmark"]),
        );
        const counted = status !== "401";
        expect(headers.includes("X-RateLimit-Remaining"), `${name} ${status}`).toBe(counted);
      }
    }
    // What is declared is what is answered: a read, a 422 and a 401, each with every header it declares.
    const t = await createTenant();
    const answers = [
      ["/api/v1/labels", await call("GET", "/api/v1/labels", { key: t.key })],
      ["/api/v1/labels", await call("GET", "/api/v1/labels?workspace_id=x", { key: t.key })],
      ["/api/v1/labels", await call("GET", "/api/v1/labels")],
    ] as const;
    expect(answers.map(([, answer]) => answer.status)).toEqual([200, 422, 401]);
    for (const [path, answer] of answers) {
      const declared = doc.paths[path].get.responses[String(answer.status)].headers;
      for (const name of Object.keys(declared).filter((name) => name !== "X-D1-Bookmark"))
        expect(answer.headers.get(name), `${answer.status} ${name}`).not.toBeNull();
    }
    expect(answers[0][1].headers.get("X-D1-Bookmark")).not.toBeNull();
    expect(Object.keys(doc.components.headers).sort()).toEqual([
      "D1Bookmark",
      "RateLimitLimit",
      "RateLimitRemaining",
      "ServerTiming",
    ]);
    // The record a path names is always `{id}` (never `{post}` on one path and `{id}` on another); only a
    // record nested under it gets a name of its own.
    const firstParams = new Set(Object.keys(doc.paths).map((path) => /\{(\w+)\}/.exec(path)?.[1] ?? "id"));
    expect([...firstParams]).toEqual(["id"]);
  });

  it("name request bodies and type a row's analytics and settings for generators", async () => {
    const { doc } = await documents();
    const body = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content["application/json"].schema.$ref;
    expect(body("/api/v1/posts", "post")).toBe("#/components/schemas/CreatePostRequest");
    expect(body("/api/v1/posts/validate", "post")).toBe("#/components/schemas/CreatePostRequest");
    expect(body("/api/v1/posts/{id}", "put")).toBe("#/components/schemas/UpdatePostRequest");
    expect(body("/api/v1/labels", "post")).toBe("#/components/schemas/CreateLabelRequest");
    const { schemas } = doc.components;
    // One object of optional metrics (the wire's `{}` before publication is valid), not "metrics or {}".
    expect(schemas.PostPlatformAnalytics.type).toBe("object");
    expect(schemas.PostPlatformAnalytics.required).toBeUndefined();
    expect(schemas.PostPlatformAnalytics.properties.likes).toEqual({ type: "integer" });
    expect(schemas.PostPlatform.discriminator.propertyName).toBe("platform");
    expect(schemas.PostPlatform.discriminator.mapping.twitter).toBe(
      "#/components/schemas/PostPlatformTwitter",
    );
    expect(schemas.PostPlatformTwitter.properties.settings).toEqual({
      $ref: "#/components/schemas/TwitterSettings",
    });
    expect(schemas.PostPlatformTwitter.properties.platform.enum).toEqual(["twitter"]);
  });

  it("close every object a request body can hold (additionalProperties: false), so no route drops a field", async () => {
    type Schema = Record<string, unknown>;
    const open: string[] = [];
    for (const document of Object.values(await documents())) {
      const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
      const seen = new Set<Schema>();
      const walk = (schema: unknown, where: string): void => {
        if (typeof schema !== "object" || schema === null) return;
        let node = schema as Schema;
        if (typeof node.$ref === "string") {
          const name = node.$ref.replace("#/components/schemas/", "");
          node = components[name] as Schema;
          where = name;
        }
        if (seen.has(node)) return;
        seen.add(node);
        if ((node.type === "object" || node.properties) && node.additionalProperties !== false)
          open.push(where);
        for (const [name, child] of Object.entries((node.properties ?? {}) as Record<string, unknown>))
          walk(child, `${where}.${name}`);
        walk(node.items, `${where}[]`);
        if (typeof node.additionalProperties === "object") walk(node.additionalProperties, `${where}.*`);
        for (const list of [node.anyOf, node.oneOf, node.allOf, node.prefixItems])
          for (const child of (list ?? []) as unknown[]) walk(child, where);
      };
      for (const [name, operation] of operationsOf(document.paths)) {
        const content = (operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } })
          .requestBody?.content;
        for (const [type, media] of Object.entries(content ?? {})) walk(media.schema, `${name} (${type})`);
      }
    }
    expect(open).toEqual([]);
  });
});
