// The operator's console invitation: POST /admin/v1/users/{id}/sign-in-links gives a one-time sign-in
// link of the same kind the sign-in form mails. Declared here, beside the links, and mounted by app.ts
// under /admin/v1, so the operator API does not depend on the console.
import { z } from "zod";
import { operatorRoute } from "../admin/operator-routes";
import { userById } from "../admin/queries";
import type { DbEnv } from "../http/env";
import { notFound } from "../http/errors";
import { jsonContent } from "../http/openapi";
import { createRouter } from "../http/router";
import { publicOrigin } from "../lib/origin";
import { idParams } from "../lib/schemas";
import { issueSignInLink, LINK_TTL_MS } from "./links";

const signInLinkSchema = z
  .strictObject({
    url: z.url().meta({ description: "Opens a confirmation page; its button signs the user in." }),
    expires_at: z.iso.datetime().meta({ description: "15 minutes from now." }),
    expires_in: z.literal(LINK_TTL_MS / 1000).meta({ description: "Seconds the link lasts." }),
  })
  .meta({ id: "SignInLink" });

export const consoleOperatorRouter = createRouter<DbEnv>().openapi(
  operatorRoute({
    method: "post",
    operationId: "createSignInLink",
    path: "/users/{id}/sign-in-links",
    summary: "Create a console sign-in link",
    description:
      "An invitation: a single-use link that signs the user in to the console (`/console`), valid for 15 minutes. Hand it to the user over a channel you trust; whoever opens it first is signed in as them.",
    request: { params: idParams },
    responses: { 201: jsonContent(signInLinkSchema, "The link, shown once.") },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    if (!(await userById(c.var.shards.of(id), id).get())) throw notFound("User");
    const link = await issueSignInLink(c.var.shards, id, publicOrigin(c.env, c.req.url));
    return c.json(
      { url: link.url, expires_at: link.expiresAt.toISOString(), expires_in: LINK_TTL_MS / 1000 },
      201,
    );
  },
);
