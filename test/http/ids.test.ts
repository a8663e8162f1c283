// Every route reads ids one way (src/lib/schemas.ts): the spellings that `z.coerce.number()` used to
// let through on /labels and /folders are refused everywhere with the same 422.
import { describe, expect, it } from "vitest";
import { call } from "../support/client";
import { createTenant } from "../support/seed";

const SPELLINGS = ["0x1", "1e1", "1.0", "%207%20", "007", "9007199254740993"];

describe("ids in queries and paths", () => {
  it.each(SPELLINGS)("refuses workspace_id=%s on /labels, /folders and /media alike", async (spelling) => {
    const t = await createTenant();
    for (const path of ["/api/v1/labels", "/api/v1/folders", "/api/v1/media"]) {
      const res = await call("GET", `${path}?workspace_id=${spelling}`, { key: t.key });
      expect(res.status, path).toBe(422);
      expect(res.body.errors).toEqual({
        workspace_id: ["The workspace id field must be a positive integer."],
      });
    }
  });

  it.each(SPELLINGS)("refuses the path id %s on every {id} route alike", async (spelling) => {
    const t = await createTenant();
    for (const [method, path] of [
      ["GET", "/api/v1/posts"],
      ["DELETE", "/api/v1/posts"],
      ["DELETE", "/api/v1/labels"],
      ["DELETE", "/api/v1/media"],
    ] as const) {
      const res = await call(method, `${path}/${spelling}`, { key: t.key });
      expect(res.status, `${method} ${path}`).toBe(422);
      expect(res.body.errors).toEqual({ id: ["The id field must be a positive integer."] });
    }
  });
});
