// Names every object has (`constructor`, `__proto__`, `toString`, …) sent as query parameters and body
// fields: each is an unknown field (422), never a 500 from indexing a plain object by the input's names.
import { describe, expect, it, vi } from "vitest";
import { ADMIN_TOKEN, call } from "../support/client";
import { createTenant } from "../support/seed";

/** Each name, and how Laravel's messages write it (a Map: these names are the point of the test). */
const SPOKEN = new Map([
  ["constructor", "constructor"],
  ["__proto__", "  proto  "],
  ["toString", "to string"],
  ["hasOwnProperty", "has own property"],
  ["valueOf", "value of"],
]);
const NAMES = [...SPOKEN.keys()];

describe("inherited property names as input", () => {
  it("are a 422 naming them in queries and bodies, never a 500", async () => {
    const errors = vi.spyOn(console, "error");
    const t = await createTenant();
    const queries: Array<[string, string]> = [
      ["GET", "/api/v1/posts"],
      ["GET", "/api/v1/labels"],
      ["GET", "/api/v1/media"],
      ["GET", "/admin/v1/users"],
    ];
    const bodies: Array<[string, string]> = [
      ["POST", "/api/v1/posts"],
      ["POST", "/api/v1/posts/validate"],
      ["POST", "/api/v1/labels"],
      ["POST", "/api/v1/webhooks"],
      ["POST", "/admin/v1/users"],
    ];
    const key = (path: string) => (path.startsWith("/admin/") ? ADMIN_TOKEN : t.key);
    const answers = await Promise.all([
      ...queries.flatMap(([method, path]) =>
        NAMES.map(async (name) => {
          const res = await call(method, `${path}?${name}=x`, { key: key(path) });
          return { what: `${method} ${path}?${name}`, name, res };
        }),
      ),
      ...bodies.flatMap(([method, path]) =>
        NAMES.map(async (name) => {
          // Raw JSON: `{"__proto__": …}` is an own key when parsed, as a client would send it.
          const res = await call(method, path, {
            key: key(path),
            rawBody: `{"${name}": {"content": [{"${name}": 1}]}}`,
            headers: { "content-type": "application/json" },
          });
          return { what: `${method} ${path} {${name}}`, name, res };
        }),
      ),
    ]);
    for (const { what, name, res } of answers) {
      expect(res.status, what).toBe(422);
      expect(res.body.errors[name], what).toEqual([`The ${SPOKEN.get(name)} field is not allowed.`]);
      expect(Object.getPrototypeOf(res.body.errors), what).toBe(Object.prototype);
    }
    // The names nested in a post (a content item, the settings and a platform's): each its own 422 field.
    const nested = await call("POST", "/api/v1/posts", {
      key: t.key,
      rawBody: `{"workspace_id": ${t.workspace.id}, "accounts": [${t.accounts[0]!.id}], "content": [{"text": "x", "constructor": 1, "__proto__": 2}], "settings": {"toString": {}, "twitter": {"valueOf": 1}}}`,
      headers: { "content-type": "application/json" },
    });
    expect(nested.status).toBe(422);
    expect(Object.keys(nested.body.errors).sort()).toEqual([
      "content.0.__proto__",
      "content.0.constructor",
      "settings.toString",
      "settings.twitter.valueOf",
    ]);
    const crashes = errors.mock.calls.filter(([first]) => String(first).startsWith("unhandled error"));
    expect(crashes).toEqual([]);
  });
});
