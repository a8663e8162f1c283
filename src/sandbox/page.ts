// The page a sandbox post's URL shows a person: the thread, its media (images on the service's own
// origin shown as images, the page's CSP loads nothing from elsewhere; anything else as a link), and its
// replies. Every value is escaped, and only http(s) media URLs become links.
import { escapeHtml, htmlPage } from "../lib/html";
import type { LedgerPost } from "./ledger";
import type { EmulatedPlatform } from "./shapes";

/** What a post's page shows. */
type PostView = Omit<LedgerPost, "platform_request" | "parent_id">;

/** Escaped text with its line breaks kept. */
const paragraph = (text: string) => `<p>${escapeHtml(text).replace(/\r?\n/g, "<br>")}</p>`;

function mediaLink(url: string, type: string, origin: string): string {
  const label = `${escapeHtml(type)}: ${escapeHtml(url)}`;
  const linkable = URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol);
  if (linkable && type.startsWith("image/") && new URL(url).origin === origin)
    return `<li><img src="${escapeHtml(url)}" alt="${escapeHtml(type)}" width="320"></li>`;
  return linkable
    ? `<li><a href="${escapeHtml(url)}" rel="noreferrer">${label}</a></li>`
    : `<li>${label}</li>`;
}

export function postPage(spec: EmulatedPlatform, post: PostView, origin = ""): Response {
  const items = post.text
    .map((text, index) => {
      const media = post.media.filter((m) => m.item === index).map((m) => mediaLink(m.url, m.type, origin));
      return `<article>
<p class="muted">${index + 1} / ${post.text.length}</p>
${paragraph(text)}
${media.length ? `<ul>${media.join("")}</ul>` : ""}
</article>`;
    })
    .join("\n");
  const replies = post.replies
    .map(
      (reply) =>
        `<li id="reply-${escapeHtml(reply.id)}">${paragraph(reply.text)}<p class="muted">${escapeHtml(reply.published_at)}</p></li>`,
    )
    .join("");
  return htmlPage({
    images: true,
    title: `Sandbox ${spec.label}: post ${post.id}`,
    body: `<h1>Sandbox ${escapeHtml(spec.label)}</h1>
<p><strong>@${escapeHtml(post.handle)}</strong> <span class="muted">${escapeHtml(post.published_at)}</span></p>
${items}
<h2>Replies (${post.replies.length})</h2>
${replies ? `<ul>${replies}</ul>` : '<p class="muted">No replies.</p>'}`,
  });
}

/** The page for an id the platform does not know: a 404. */
export function missingPostPage(spec: EmulatedPlatform): Response {
  const page = htmlPage({
    title: `Sandbox ${spec.label}: post not found`,
    body: `<h1>Sandbox ${escapeHtml(spec.label)}</h1><p>This post does not exist.</p>`,
  });
  return new Response(page.body, { status: 404, headers: page.headers });
}
