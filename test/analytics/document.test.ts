// The analytics routes in the OpenAPI document: the five operations under the Analytics tag, each
// needing the `posts` ability, with their named, closed answer schemas.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";

describe("the analytics API in /openapi.json", () => {
  it("documents the five operations, the posts ability and strict answers", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/v1/analytics"))
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, any>).map(([method, op]) => ({ key: `${method} ${path}`, op })),
      );
    expect(operations.map((o) => o.key).sort()).toEqual([
      "get /api/v1/analytics",
      "get /api/v1/analytics/accounts/{id}",
      "get /api/v1/analytics/posts/{id}",
      "get /api/v1/analytics/workspaces/{id}",
      "post /api/v1/analytics/posts/{id}/sync",
    ]);
    for (const { op } of operations) {
      expect(op.tags).toEqual(["Analytics"]);
      expect(op["x-required-ability"]).toBe("posts");
    }
    for (const id of [
      "AnalyticsMetrics",
      "PostAnalytics",
      "AccountPostsAnalytics",
      "WorkspaceAnalytics",
      "OverallAnalytics",
      "AnalyticsSync",
    ]) {
      expect(doc.components.schemas[id]?.additionalProperties, id).toBe(false);
    }
    const post = doc.paths["/api/v1/analytics/posts/{id}"].get;
    expect(Object.keys(post.responses).sort()).toEqual(["200", "401", "403", "404", "422", "429"]);
  });
});
