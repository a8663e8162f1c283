// `npm run bench:present`: the CPU a page of 100 rich posts costs to present (every time rendered in
// the workspace's zone, every media link signed, the JSON built), the work a `GET /api/v1/posts?per_page=100`
// does after its one D1 batch. Run in Node on the same code the worker runs (workerd's clock does not
// advance during pure computation, so CPU cannot be timed inside it). Each post: 2 items with a media
// item each, 2 platform rows published twice, 3 labels, 1 comment. Prints the median and p99 of 300
// pages after 30 warm-up pages; a Workers Free plan request may spend 10 ms of CPU.
import type { LoadedPost } from "../src/posts/load";
import { presentPosts } from "../src/posts/present";

const ctx = {
  env: { ENCRYPTION_KEY: "YmVuY2gtb25seS1lbmNyeXB0aW9uLWtleS0zMi1ieXQ=" },
  origin: "https://api.example.com",
  includeComments: true,
};

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 9, 0) + minutes * 60_000);

function page(first: number): LoadedPost[] {
  const workspace = {
    id: 1,
    name: "Bench",
    slug: "bench",
    type: "ORGANIZATION",
    logo: null,
    timezone: "Europe/Paris",
    language: "en",
    createdAt: at(0),
    updatedAt: at(0),
    postCount: 100,
    mediaCount: 200,
  } as unknown as LoadedPost["workspace"];
  return Array.from({ length: 100 }, (_, i) => {
    const id = first + i;
    const media = (n: number) =>
      ({
        id: id * 2 + n,
        workspaceId: 1,
        name: `photo-${id}-${n}.jpg`,
        mimeType: "image/jpeg",
        type: "image",
        size: 120_000,
      }) as unknown as LoadedPost["media"][number]["media"];
    const row = (n: number) =>
      ({
        id: id * 2 + n,
        postId: id,
        accountId: n + 1,
        platform: n ? "linkedin" : "twitter",
        status: "PUBLISHED",
        settings: { reply_settings: "everyone" },
        analytics: {
          likes: 3,
          comments: 1,
          shares: 0,
          impressions: 120,
          quotes: 0,
          saves: 0,
          engagement_rate: 3.33,
        },
        platformPostId: String(1_800_000_000_000 + id),
        postUrl: `https://x.com/bench/status/${id}`,
        postedOn: [at(i).getTime(), at(i + 1440).getTime()],
        error: null,
      }) as unknown as LoadedPost["rows"][number];
    return {
      post: {
        id,
        workspaceId: 1,
        userId: 1,
        status: "PUBLISHED",
        content: [`Post ${id}: launch day`, "Second item"],
        scheduledAt: at(i),
        publishNow: false,
        repeatable: false,
        repeatableTimes: null,
        repeatableGap: null,
        repeatableGapUnit: null,
        remainingPosts: null,
        autoPlug: null,
        createdAt: at(i - 60),
        updatedAt: at(i + 1),
      } as unknown as LoadedPost["post"],
      workspace,
      rows: [row(0), row(1)],
      labels: [1, 2, 3].map((n) => ({ id: n, name: `label ${n}`, color: "#112233" })),
      media: [
        { itemIndex: 0, position: 0, media: media(0) },
        { itemIndex: 1, position: 0, media: media(1) },
      ],
      comments: [
        {
          id,
          postId: id,
          platform: "twitter",
          platformCommentId: String(id),
          content: "Nice!",
          authorName: "Ada",
          contact: null,
          createdAt: at(i + 5),
        } as unknown as LoadedPost["comments"][number],
      ],
    };
  });
}

const times: number[] = [];
for (let run = 0; run < 330; run++) {
  const loaded = page(run * 100 + 1);
  const start = performance.now();
  JSON.stringify({ data: await presentPosts(loaded, ctx) });
  if (run >= 30) times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
const percentile = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
process.stdout.write(
  `present 100 posts (200 signed links, 700 zoned times, JSON): median ${percentile(50).toFixed(2)} ms, p99 ${percentile(99).toFixed(2)} ms over ${times.length} pages (node ${process.version})\n`,
);
