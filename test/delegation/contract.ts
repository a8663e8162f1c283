// The route contract of the delegation session endpoint (the browser pages are not in the document):
// coded errors, any valid key with a signing secret, a JSON body.
import { expect } from "vitest";
import { admin } from "../support/client";
import type { RouteContract } from "../support/contract";
import { APP_CALLBACK, randomState, SESSIONS } from "./support";

export const delegationContracts: RouteContract[] = [
  {
    method: "POST",
    route: "/api/oauth/delegate/sessions",
    auth: "api",
    ability: null,
    coded: true,
    jsonBody: true,
    setup: async (t) => {
      const secret = await admin("POST", `/api-keys/${t.keyId}/signing-secret`);
      expect(secret.status).toBe(201);
    },
    request: () => ({
      path: SESSIONS,
      body: { platform: "twitter", callback_url: APP_CALLBACK, state: randomState() },
    }),
    status: 200,
    // The key lookup; the rate limit and the flow's Coordinator.
    budget: { db: 0, gate: 1, hops: 2 },
  },
];
