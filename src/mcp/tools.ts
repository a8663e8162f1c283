// The MCP tools: one per REST route an agent needs, each naming the route it calls and the zod schemas
// that route validates with (its path ids, its query, its body). The tool's input schema is written
// from those schemas (schema.ts) and a call is answered by the route itself (call.ts), so a tool can
// never accept or answer anything its route would not.
import type { z } from "zod";
import { approveBody, rejectBody } from "../approvals/schemas";
import { listCommentsQuery, replyBody } from "../comments/schemas";
import { createFolderBody, listFoldersQuery } from "../folders/schemas";
import { importJsonBody } from "../imports/schemas";
import { createLabelBody, listLabelsQuery, updateLabelBody } from "../labels/schemas";
import { importMediaBody, listMediaQuery } from "../media/schemas";
import { createPostBody, getPostQuery, listPostsQuery, updatePostBody } from "../posts/schemas";
import { createWebhookBody, listWebhooksQuery } from "../webhooks/schemas";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export type ToolSpec = {
  name: string;
  title: string;
  description: string;
  method: HttpMethod;
  /** The route's path under the origin, its ids written `{name}` (each a positive integer argument). */
  path: `/api/v1/${string}`;
  query?: z.ZodObject;
  body?: z.ZodObject;
  /** A write: the tool takes `idempotency_key`, sent as the `Idempotency-Key` header. */
  writes?: "creates" | "repeatable";
  /** Body fields the tool always sends, whatever its arguments (`queue_post`: `queue: true`). */
  sends?: Record<string, unknown>;
  /** The path ids' JSON Schema when they are not positive integers (an import's `imp_…`). */
  idSchema?: { type: "string"; pattern: string; description: string };
};

const VALIDATE_FIRST =
  "Call validate_post with the same arguments first: it answers, without creating anything, whether each account would publish and every problem by field path; fix those, then create.";

export const TOOLS: readonly ToolSpec[] = [
  {
    name: "list_workspaces",
    title: "List workspaces",
    description:
      "Every workspace the key's user is a member of, with its connected accounts (ids, platforms).",
    method: "GET",
    path: "/api/v1/workspaces",
  },
  {
    name: "list_accounts",
    title: "List accounts",
    description: "The connected social accounts of every workspace the user can access.",
    method: "GET",
    path: "/api/v1/accounts",
  },
  {
    name: "list_posts",
    title: "List posts",
    description:
      "One page of posts, newest first, optionally filtered by status, workspace_id, account_id and a scheduled_from / scheduled_to window (ISO 8601). Follow `next_page_url`'s before_id for the next page.",
    method: "GET",
    path: "/api/v1/posts",
    query: listPostsQuery,
  },
  {
    name: "get_post",
    title: "Get a post",
    description: "One post with its platform rows (status, post_url, error, analytics), labels and media.",
    method: "GET",
    path: "/api/v1/posts/{id}",
    query: getPostQuery,
  },
  {
    name: "validate_post",
    title: "Validate a post (dry run)",
    description:
      "Takes create_post's arguments and creates nothing: `valid`, the `errors` create would answer, and for each account whether it would publish and why not. Call it before create_post.",
    method: "POST",
    path: "/api/v1/posts/validate",
    body: createPostBody,
  },
  {
    name: "create_post",
    title: "Create a post",
    description: `Creates a post in workspace_id for the given accounts: a DRAFT without scheduled_at or publish_now, SCHEDULED with scheduled_at (ISO 8601 with an offset), published at once with publish_now, at the next free slot of its accounts' posting queues with queue: true. In a workspace whose approval is required, a post with a time waits as PENDING_APPROVAL until a person approves it. ${VALIDATE_FIRST}`,
    method: "POST",
    path: "/api/v1/posts",
    body: createPostBody,
    writes: "creates",
  },
  {
    name: "update_post",
    title: "Update a post",
    description:
      "Changes a DRAFT, SCHEDULED or FAILED post: the fields given replace the post's (accounts, content, scheduled_at, labels, settings, …). A PUBLISHED post is refused (422), a PUBLISHING one is a conflict (409).",
    method: "PUT",
    path: "/api/v1/posts/{id}",
    body: updatePostBody,
    writes: "repeatable",
  },
  {
    name: "queue_post",
    title: "Add a post to the queue",
    description:
      "Schedules a DRAFT, SCHEDULED or FAILED post at the next free slot of its accounts' posting queues (the earliest slot every one of them has free, within 90 days); `accounts` retargets it first. A SCHEDULED post keeps its time when that is already the earliest free slot. create_post and update_post take `queue: true` to the same effect.",
    method: "PUT",
    path: "/api/v1/posts/{id}",
    body: updatePostBody.pick({ accounts: true }),
    writes: "repeatable",
    sends: { queue: true },
  },
  {
    name: "import_posts",
    title: "Import posts in bulk",
    description:
      "Validates up to 1,000 posts (each the arguments of create_post without workspace_id) row by row, as validate_post does, and answers each row's problems by field; nothing is created unless `commit: true`, which then creates the valid rows' posts in row order (the answer's `created`; with media given as URLs, or over 300 rows, finish with commit_import). Fix the invalid rows and import them again.",
    method: "POST",
    path: "/api/v1/imports",
    body: importJsonBody,
    writes: "creates",
  },
  {
    name: "commit_import",
    title: "Commit an import",
    description:
      'Creates the valid rows\' posts of an import made by import_posts (its `id`), in row order, each at most once: calling it again creates nothing more. While the import\'s media URLs are still downloading it answers `status: "importing_media"` with their progress, and over 300 rows `status: "committing"` with `remaining`: call it again (a few seconds later) until `status` is `committed`.',
    method: "POST",
    path: "/api/v1/imports/{id}/commit",
    idSchema: { type: "string", pattern: "^imp_[0-9a-f]{32}$", description: "The import's id (`imp_…`)." },
    writes: "repeatable",
  },
  {
    name: "delete_post",
    title: "Delete a post",
    description: "Deletes a post that is not being published (409 while it is).",
    method: "DELETE",
    path: "/api/v1/posts/{id}",
    writes: "repeatable",
  },
  {
    name: "retry_post",
    title: "Retry a failed post",
    description: "Publishes a FAILED post's failed rows again; its published rows are left alone.",
    method: "POST",
    path: "/api/v1/posts/{id}/retry",
    writes: "creates",
  },
  {
    name: "approve_post",
    title: "Approve a post",
    description:
      "Approves a post waiting for approval (status PENDING_APPROVAL) at the `version` you read (get_post): it is then scheduled, or published at once if its time has come. Needs a key with the `approvals` ability; a post changed since is a conflict (409), one not waiting a 422.",
    method: "POST",
    path: "/api/v1/posts/{id}/approve",
    body: approveBody,
    writes: "repeatable",
  },
  {
    name: "reject_post",
    title: "Reject a post",
    description:
      "Rejects a post waiting for approval at the `version` you read, with a `reason`: it goes back to DRAFT. Needs a key with the `approvals` ability.",
    method: "POST",
    path: "/api/v1/posts/{id}/reject",
    body: rejectBody,
    writes: "repeatable",
  },
  {
    name: "get_post_reviews",
    title: "Get a post's review history",
    description:
      "Who submitted, edited, approved or rejected the post, at which version, with their note (a rejection's reason), oldest first: read it to learn why a post went back to DRAFT.",
    method: "GET",
    path: "/api/v1/posts/{id}/reviews",
  },
  {
    name: "get_post_analytics",
    title: "Get a post's analytics",
    description: "The post's metrics in total and per account (likes, comments, shares, views, …).",
    method: "GET",
    path: "/api/v1/analytics/posts/{post}",
  },
  {
    name: "sync_post_analytics",
    title: "Refresh a post's analytics",
    description:
      "Queues a fresh read of the post's metrics from each platform; read them with get_post_analytics a few seconds later.",
    method: "POST",
    path: "/api/v1/analytics/posts/{post}/sync",
    writes: "repeatable",
  },
  {
    name: "list_comments",
    title: "List comments",
    description:
      "One page of the comments on the connected accounts' published posts, newest first, optionally filtered by workspace_id, account_id, post_id, platform, since (ISO 8601), hidden and replied. Pass `next_cursor` as `cursor` for the next page.",
    method: "GET",
    path: "/api/v1/comments",
    query: listCommentsQuery,
  },
  {
    name: "reply_to_comment",
    title: "Reply to a comment",
    description:
      "Publishes the account's reply under a comment (an id from list_comments whose `actions` has `reply`), through the comment's platform, exactly once; answers the reply as a comment.",
    method: "POST",
    path: "/api/v1/comments/{id}/replies",
    body: replyBody,
    writes: "creates",
  },
  {
    name: "hide_comment",
    title: "Hide a comment",
    description:
      "Hides a comment from the public on its platform (where its `actions` has `hide`); unhide_comment shows it again.",
    method: "POST",
    path: "/api/v1/comments/{id}/hide",
    writes: "repeatable",
  },
  {
    name: "unhide_comment",
    title: "Show a hidden comment again",
    description: "Shows a comment hidden with hide_comment (or on the platform) again.",
    method: "POST",
    path: "/api/v1/comments/{id}/unhide",
    writes: "repeatable",
  },
  {
    name: "delete_comment",
    title: "Delete a comment",
    description:
      "Deletes a comment on its platform and from the inbox (where its `actions` has `delete`: on X, the account's own replies only).",
    method: "DELETE",
    path: "/api/v1/comments/{id}",
    writes: "repeatable",
  },
  {
    name: "list_media",
    title: "List media",
    description: "The media library, newest first, optionally one workspace's or one folder's.",
    method: "GET",
    path: "/api/v1/media",
    query: listMediaQuery,
  },
  {
    name: "import_media",
    title: "Import media by URL",
    description:
      "Imports images or videos into a workspace's media library from public URLs (direct links, or pages whose Open Graph tags name media). Items are processing until their bytes are stored; their ids go in a post's content[].media.",
    method: "POST",
    path: "/api/v1/media/upload/url",
    body: importMediaBody,
    writes: "creates",
  },
  {
    name: "list_labels",
    title: "List labels",
    description: "The labels of every workspace the user can access, or of one.",
    method: "GET",
    path: "/api/v1/labels",
    query: listLabelsQuery,
  },
  {
    name: "create_label",
    title: "Create a label",
    description: "Creates a label in a workspace; its id goes in a post's labels.",
    method: "POST",
    path: "/api/v1/labels",
    body: createLabelBody,
    writes: "creates",
  },
  {
    name: "update_label",
    title: "Update a label",
    description: "Renames or recolours a label.",
    method: "PUT",
    path: "/api/v1/labels/{id}",
    body: updateLabelBody,
    writes: "repeatable",
  },
  {
    name: "delete_label",
    title: "Delete a label",
    description: "Deletes a label; posts lose it.",
    method: "DELETE",
    path: "/api/v1/labels/{id}",
    writes: "repeatable",
  },
  {
    name: "list_folders",
    title: "List folders",
    description: "A workspace's media folders, or one folder's children (`parent_id`, `root` for the top).",
    method: "GET",
    path: "/api/v1/folders",
    query: listFoldersQuery,
  },
  {
    name: "create_folder",
    title: "Create a folder",
    description: "Creates a media folder in a workspace (optionally inside another).",
    method: "POST",
    path: "/api/v1/folders",
    body: createFolderBody,
    writes: "creates",
  },
  {
    name: "list_webhooks",
    title: "List webhooks",
    description: "The webhook endpoints of every workspace the user can access, or of one.",
    method: "GET",
    path: "/api/v1/webhooks",
    query: listWebhooksQuery,
  },
  {
    name: "create_webhook",
    title: "Create a webhook",
    description:
      "Registers an endpoint that receives the workspace's events (post.published, post.failed, …), signed with the secret this answer shows once.",
    method: "POST",
    path: "/api/v1/webhooks",
    body: createWebhookBody,
    writes: "creates",
  },
  {
    name: "test_webhook",
    title: "Send a test event",
    description: "Sends a signed `webhook.test` event to the endpoint, delivered like any other event.",
    method: "POST",
    path: "/api/v1/webhooks/{id}/test",
    writes: "repeatable",
  },
  {
    name: "list_webhook_deliveries",
    title: "List a webhook's deliveries",
    description: "The endpoint's recent deliveries: event, status, attempts, the receiver's answer.",
    method: "GET",
    path: "/api/v1/webhooks/{id}/deliveries",
  },
  {
    name: "get_me",
    title: "Who am I",
    description: "The key's user, its abilities, its expiry and what is left of the rate window.",
    method: "GET",
    path: "/api/v1/me",
  },
];

/** The path's `{name}` placeholders, in order. */
export const pathParams = (spec: ToolSpec) => [...spec.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
