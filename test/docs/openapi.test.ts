import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { documentedRoutes } from "../support/contract";

describe("GET /openapi.json", () => {
  it("is an OpenAPI 3.1 document of every route, with security schemes and error bodies", async () => {
    const res = await call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "https://api.example.test" }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["adminToken", "apiKey"]);
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(documentedRoutes().sort());
    const list = doc.paths["/api/v1/labels"].get;
    expect(list.security).toEqual([{ apiKey: [] }]);
    expect(list["x-required-ability"]).toBe("labels");
    expect(Object.keys(list.responses).sort()).toEqual(["200", "401", "403", "404", "422", "429"]);
    expect(Object.keys(list.responses["429"].headers).sort()).toEqual([
      "Retry-After",
      "X-RateLimit-Limit",
      "X-RateLimit-Remaining",
      "X-RateLimit-Reset",
    ]);
    expect(doc.components.schemas.ValidationError).toBeDefined();
    expect(doc.components.schemas.Label.additionalProperties).toBe(false);
  });
});
