// The review page of a review link (links.ts), rendered on the server (hono/jsx), no script: the post as
// each of its platforms will publish it (the thread item by item as that platform publishes a thread,
// its media, the row's settings), and a form with two submit buttons `decision` (approve, reject) and a
// `note`. It uses the console's stylesheet (same origin), readable at 390 px and with a keyboard.
import type { Child, FC } from "hono/jsx";
import { SPECS } from "../platforms/catalog";
import type { PresentedPost } from "../posts/present";

const Frame: FC<{ title: string; children?: Child }> = ({ title, children }) => (
  <html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="robots" content="noindex" />
      <title>{`${title} · Social Publishing API`}</title>
      <link rel="stylesheet" href="/console/assets/console.css" />
    </head>
    <body>
      <header>
        <span class="brand">Social Publishing API</span>
      </header>
      <main id="main">
        <h1>{title}</h1>
        {children}
      </main>
    </body>
  </html>
);

/** A page that only says something: an expired, tampered, used or outdated link, or a decision's outcome. */
export const MessagePage: FC<{ title: string; message: string }> = ({ title, message }) => (
  <Frame title={title}>
    <p role="status">{message}</p>
  </Frame>
);

/** How the platform publishes the items after the first: a reply chain, comments, or not at all. */
const itemName = (thread: "chain" | "comments" | "none", index: number) =>
  index === 0
    ? "Post"
    : thread === "chain"
      ? `Reply ${index} in the thread`
      : `Comment ${index} under the post`;

const settingValue = (value: unknown) =>
  value === null || value === undefined ? "—" : typeof value === "string" ? value : JSON.stringify(value);

type Row = PresentedPost["platforms"][number];

const PlatformPreview: FC<{ post: PresentedPost; row: Row; handle: string | undefined }> = ({
  post,
  row,
  handle,
}) => {
  const spec = SPECS[row.platform];
  const thread = spec.media.thread;
  const items = thread === "none" ? post.content.slice(0, 1) : post.content;
  return (
    <section class="card" aria-labelledby={`row-${row.account_id}`}>
      <h2 id={`row-${row.account_id}`}>
        {spec.label}
        {handle ? ` · @${handle}` : ""}
      </h2>
      <ol class="replies">
        {items.map((item, index) => (
          <li>
            <h3>{itemName(thread, index)}</h3>
            <p class="comment-text">{item.text}</p>
            {item.media.length > 0 && (
              <ul class="targets">
                {item.media.map((m) => (
                  <li>
                    {m.type.startsWith("image/") ? (
                      <a href={m.url}>
                        <img src={m.url} alt={m.name} width="160" />
                      </a>
                    ) : (
                      <a href={m.url}>{`${m.name} (${m.type})`}</a>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {thread === "none" && post.content.length > 1 && (
        <p class="error">{`${spec.label} publishes no threads: only the first item is shown, and publishing the thread there fails.`}</p>
      )}
      <h3>Settings</h3>
      <dl>
        {Object.entries(row.settings).map(([key, value]) => (
          <>
            <dt>{key}</dt>
            <dd>{settingValue(value)}</dd>
          </>
        ))}
      </dl>
    </section>
  );
};

export const ReviewPage: FC<{
  post: PresentedPost;
  handles: Map<number, string>;
  label: string | null;
  action: string;
  csrf: string;
}> = ({ post, handles, label, action, csrf }) => (
  <Frame title="Review a post">
    <p>
      {`Workspace ${post.workspace.name}, version ${post.version}. `}
      {post.scheduled_at
        ? `To be published at ${post.scheduled_at}; approved after that time, it is published at once.`
        : "To be published as soon as it is approved."}
    </p>
    {label && <p class="muted">{`This link is for: ${label}`}</p>}
    {post.platforms.map((row) => (
      <PlatformPreview post={post} row={row} handle={handles.get(row.account_id)} />
    ))}
    <h2>Your decision</h2>
    <form method="post" action={action}>
      <input type="hidden" name="csrf" value={csrf} />
      <label for="note">Note (optional; when rejecting, say why)</label>
      <textarea id="note" name="note" maxlength={1000} rows={3}></textarea>
      <div class="actions">
        <button type="submit" name="decision" value="approve" class="primary">
          Approve
        </button>
        <button type="submit" name="decision" value="reject">
          Reject
        </button>
      </div>
    </form>
  </Frame>
);
