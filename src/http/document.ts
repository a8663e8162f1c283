// The OpenAPI documents: `GET /openapi.json`, every public operation (the one integrators generate clients
// from), and `GET /admin/openapi.json`, the operator API on its own. Both are cut from the one document
// the app's routes write, each keeping only the components it refers to.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Context, Env as HonoEnv } from "hono";
import { publicOrigin } from "../lib/origin";
import { SHARED_HEADERS } from "./openapi";

type Document = Record<string, unknown> & {
  paths?: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string }[];
};

/** Stands for the service's public origin in the built document; replaced on every request. */
const ORIGIN = "https://origin.invalid";

const DESCRIPTION = [
  "Workspaces, connected social accounts, posts published to eight platforms, labels, a media library, engagement analytics, webhooks, and OAuth delegation that returns a signed proof of account ownership.",
  "",
  `**Start with [the guide](${ORIGIN}/docs/guide)**: the quick start, every resource with examples, the typed client (\`social-publishing-api/client\`) and the proof verifier.`,
  "",
  "Every `/api/v1` request carries `Authorization: Bearer <API key>`. Each user may make 60 requests per minute across all of their keys; every answer carries `X-RateLimit-Limit` and `X-RateLimit-Remaining`, and `Server-Timing` says what the request spent (`db` round trips, `gate` Durable Object calls, `hops`: remote calls made one after another, `rows`: rows the database read).",
  "",
  "Reads may be served by the database replica nearest to the caller. Every answer carries `X-D1-Bookmark`; send its value back, unchanged, in the `X-D1-Bookmark` request header and the request reads data at least as fresh as that answer (read your own writes). A value that is not a bookmark is a 400.",
].join("\n");

const TAGS = [
  {
    name: "Me",
    description: "The API key itself: its user, abilities, expiry and what is left of its rate window.",
  },
  { name: "Workspaces", description: "The workspaces the key's user belongs to, with their accounts." },
  {
    name: "Accounts",
    description:
      "Connected social accounts: list, inspect (token health), connect and reconnect by OAuth, disconnect.",
  },
  {
    name: "Posts",
    description:
      "Posts to one or more accounts: drafts, scheduled, published now, repeated; the dry run (`validatePost`), edits and retries.",
  },
  {
    name: "Queues",
    description:
      "Posting queues: weekly slots in wall-clock time per account (or a workspace's default), the next free slots, and `queue: true` on a post.",
  },
  {
    name: "Imports",
    description:
      "Bulk import: up to 1,000 posts as JSON or CSV, each row validated as the dry run validates a post, a download of the rows with their problems, then a commit that creates the valid rows once.",
  },
  { name: "Labels", description: "Coloured labels a workspace's posts can carry." },
  { name: "Folders", description: "Folders of a workspace's media library." },
  {
    name: "Media",
    description:
      "The media library: import by URL, upload a file, list, delete; items are served by signed links.",
  },
  {
    name: "Analytics",
    description: "Engagement metrics of published posts, by post, account and workspace.",
  },
  {
    name: "Comments",
    description:
      "The comment inbox: comments read from every connected account's published posts, newest first.",
  },
  {
    name: "Approvals",
    description:
      "Posts that wait for a person's approval in workspaces whose `approval` is `required`: approve, reject, the review history, review links.",
  },
  {
    name: "Webhooks",
    description:
      "Endpoints that receive signed events (Standard Webhooks), their deliveries, and the events themselves.",
  },
  {
    name: "Delegation",
    description:
      "OAuth delegation for third-party applications: a session whose browser flow ends with a signed proof of account ownership.",
  },
];

const OPERATOR_TAG = {
  name: "Operator",
  description: "Stands in for the account web app: users, workspaces, accounts, API keys, subscriptions.",
};

const isOperatorPath = (path: string) => path.startsWith("/admin/");

/** Every `$ref` under `node`. */
function refsIn(node: unknown, into: Set<string>) {
  if (Array.isArray(node)) for (const item of node) refsIn(item, into);
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") into.add(value);
      else refsIn(value, into);
    }
  return into;
}

/** Security scheme names the operations of `items` require. */
function schemesIn(items: Record<string, unknown>, into: Set<string>) {
  for (const item of Object.values(items))
    for (const operation of Object.values(item as Record<string, { security?: object[] }>))
      for (const requirement of operation.security ?? [])
        for (const name of Object.keys(requirement)) into.add(name);
  return into;
}

/** The part of `full` whose paths `keep` accepts, with only the components (transitively) referred to. */
export function cutDocument(
  full: Document,
  keep: (path: string) => boolean,
  withWebhooks: boolean,
): Document {
  const paths = Object.fromEntries(Object.entries(full.paths ?? {}).filter(([path]) => keep(path)));
  const webhooks = withWebhooks ? (full.webhooks ?? {}) : {};
  const components = full.components ?? {};
  const refs = refsIn([paths, webhooks], new Set());
  // Follow references from the components kept until nothing new appears.
  for (let size = -1; size !== refs.size; ) {
    size = refs.size;
    for (const ref of [...refs]) {
      const [, , section, name] = ref.split("/");
      refsIn(section && name ? components[section]?.[name] : undefined, refs);
    }
  }
  const schemes = schemesIn({ ...paths, ...webhooks }, new Set());
  const kept: Record<string, Record<string, unknown>> = {};
  for (const [section, members] of Object.entries(components)) {
    const names = Object.keys(members).filter((name) =>
      section === "securitySchemes" ? schemes.has(name) : refs.has(`#/components/${section}/${name}`),
    );
    if (names.length) kept[section] = Object.fromEntries(names.map((name) => [name, members[name]]));
  }
  const { webhooks: _webhooks, ...rest } = full;
  return {
    ...rest,
    paths,
    ...(withWebhooks && full.webhooks ? { webhooks } : {}),
    components: kept,
  };
}

/**
 * Serves the documents of every route registered on `app`: GET /openapi.json (the public API) and
 * GET /admin/openapi.json (the operator API).
 */
export function registerDocument<E extends HonoEnv>(app: OpenAPIHono<E>) {
  app.openAPIRegistry.registerComponent("securitySchemes", "apiKey", {
    type: "http",
    scheme: "bearer",
    description:
      "An API key (`spk_…`, or `spk<n>_…` for a user in shard n), created by the operator API and shown once. Each key carries abilities: `posts`, `workspaces`, `accounts`, `labels`, `approvals`; test keys start `spk_test_`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator token (`ADMIN_TOKEN`). The operator API does not exist while it is unset.",
  });
  for (const [name, header] of Object.entries(SHARED_HEADERS))
    app.openAPIRegistry.registerComponent("headers", name, header as never);
  // Built on their first request, then kept for the isolate's life: the routes are all registered when
  // the module loads, and only the service's origin varies by request (spliced in as the first member,
  // and in place of ORIGIN in the links).
  let documents: { public: string; operator: string } | undefined;
  const build = () => {
    const full = app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: {
        title: "Social publishing API",
        version: "1.0.0",
        description: DESCRIPTION,
        contact: { name: "The guide", url: `${ORIGIN}/docs/guide` },
        license: { name: "UNLICENSED", url: `${ORIGIN}/docs/guide#the-reference` },
      },
      tags: [...TAGS, OPERATOR_TAG],
    }) as unknown as Document;
    const operator = cutDocument(full, isOperatorPath, false);
    return {
      public: JSON.stringify({ ...cutDocument(full, (path) => !isOperatorPath(path), true), tags: TAGS }),
      operator: JSON.stringify({
        ...operator,
        info: {
          ...(full.info as object),
          title: "Social publishing API: operator API",
          description:
            "The operator API (`/admin/v1`): users, workspaces, accounts, API keys and subscriptions, behind `Authorization: Bearer $ADMIN_TOKEN`. Every route answers 404 while `ADMIN_TOKEN` is unset. The public API is described at `/openapi.json`.",
        },
        tags: [OPERATOR_TAG],
      }),
    };
  };
  const serve = (which: "public" | "operator") => (c: Context<E>) => {
    documents ??= build();
    const origin = publicOrigin(c.env as Pick<Env, "PUBLIC_BASE_URL">, c.req.url);
    const body = documents[which].replaceAll(ORIGIN, JSON.stringify(origin).slice(1, -1));
    return c.body(`{"servers":${JSON.stringify([{ url: origin }])},${body.slice(1)}`, 200, {
      "Content-Type": "application/json",
    });
  };
  app.get("/openapi.json", serve("public"));
  app.get("/admin/openapi.json", serve("operator"));
}
