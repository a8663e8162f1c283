// The OpenAPI document describes every event under `webhooks`: its body (the record as the API answers
// it), the three signature headers, and the webhook routes with their tag.
import { describe, expect, it } from "vitest";
import { DELIVERED_EVENT_TYPES } from "../../src/webhooks/catalog";
import { call } from "../support/client";

describe("the OpenAPI document", () => {
  it("lists every event type under webhooks, with its body and signature headers", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    // Every type the code can deliver, the test event of POST /webhooks/{id}/test included.
    expect(Object.keys(doc.webhooks).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    expect(
      doc.webhooks["webhook.test"].post.requestBody.content["application/json"].schema.properties.data,
    ).toMatchObject({ required: ["webhook_id", "message"] });
    const published = doc.webhooks["post.published"].post;
    expect(published.parameters.map((p: any) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
    const body = published.requestBody.content["application/json"].schema;
    expect(body.properties.data).toEqual({ $ref: "#/components/schemas/Post" });
    expect(body.properties.type).toMatchObject({ enum: ["post.published"] });
    expect(
      doc.webhooks["account.expired"].post.requestBody.content["application/json"].schema.properties.data,
    ).toEqual({
      $ref: "#/components/schemas/Account",
    });
    expect(
      doc.webhooks["analytics.synced"].post.requestBody.content["application/json"].schema.properties.data,
    ).toEqual({
      $ref: "#/components/schemas/PostAnalytics",
    });
    expect(
      doc.webhooks["comment.received"].post.requestBody.content["application/json"].schema.properties.data,
    ).toEqual({
      $ref: "#/components/schemas/Comment",
    });
    expect(doc.paths["/api/v1/webhooks"].post["x-required-ability"]).toBe("workspaces");
    expect(doc.components.schemas.WebhookWithSecret.properties.secret).toBeDefined();
    expect(doc.components.schemas.WebhookDelivery.additionalProperties).toBe(false);
  });
});
