// Pin analytics on the emulator (GET /v5/pins/{id}/analytics): the documented parameters checked
// (dates within 90 days, metric types, app types, NO_SPLIT), the answer in Pinterest's metric names, the
// values the sandbox's deterministic counts. Pinterest v5 has no comment endpoints: none is emulated.
// developers.pinterest.com › API reference v5 › Get Pin analytics.
import type { PostMetrics } from "../../platforms/types";
import { type Emulated, refuse } from "../emulator";
import { metricsAt, minutesSince, postSeed } from "../metrics";
import { ownPin } from "./publish";
import { ANALYTICS_MAX_DAYS } from "./rules";

const DAY_MS = 86_400_000;

const STANDARD_METRICS = [
  "IMPRESSION",
  "OUTBOUND_CLICK",
  "PIN_CLICK",
  "SAVE",
  "SAVE_RATE",
  "TOTAL_COMMENTS",
  "TOTAL_REACTIONS",
  "USER_FOLLOW",
  "PROFILE_VISIT",
  "VIDEO_MRC_VIEW",
  "VIDEO_10S_VIEW",
  "QUARTILE_95_PERCENT_VIEW",
  "VIDEO_V50_WATCH_TIME",
  "VIDEO_START",
  "VIDEO_AVG_WATCH_TIME",
] as const;
type Metric = (typeof STANDARD_METRICS)[number];
/** Reported over the Pin's lifetime only. */
const LIFETIME: ReadonlySet<Metric> = new Set(["TOTAL_COMMENTS", "TOTAL_REACTIONS"]);

/** The sandbox's generic counts in Pinterest's metric names. */
function pinterestMetrics(m: PostMetrics, video: boolean): Record<Metric, number> {
  const views = video ? Math.floor(m.impressions / 3) : 0;
  return {
    IMPRESSION: m.impressions,
    SAVE: m.saves,
    SAVE_RATE: m.impressions > 0 ? Math.round((m.saves / m.impressions) * 10_000) / 10_000 : 0,
    PIN_CLICK: Math.floor(m.impressions / 20),
    OUTBOUND_CLICK: Math.floor(m.impressions / 50),
    TOTAL_COMMENTS: m.comments,
    TOTAL_REACTIONS: m.likes,
    USER_FOLLOW: Math.floor(m.likes / 10),
    PROFILE_VISIT: Math.floor(m.impressions / 40),
    VIDEO_MRC_VIEW: views,
    VIDEO_10S_VIEW: Math.floor(views / 2),
    QUARTILE_95_PERCENT_VIEW: Math.floor(views / 4),
    VIDEO_V50_WATCH_TIME: views * 4_000,
    VIDEO_START: video ? Math.floor(m.impressions / 2) : 0,
    VIDEO_AVG_WATCH_TIME: views > 0 ? 4_000 : 0,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** GET /v5/pins/{pin_id}/analytics. */
export async function analytics(e: Emulated, pinId: string, query: URLSearchParams) {
  const me = await e.caller();
  const post = await ownPin(e, me.handle, pinId);
  const invalid = (why: string) =>
    refuse(400, "invalid_request", `Invalid pins analytics parameters: ${why}`, { code: 400 });
  const start = query.get("start_date") ?? "";
  const end = query.get("end_date") ?? "";
  if (
    !DATE.test(start) ||
    !DATE.test(end) ||
    Number.isNaN(Date.parse(start)) ||
    Number.isNaN(Date.parse(end))
  )
    return invalid("start_date and end_date are required, as YYYY-MM-DD.");
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`);
  const today = Date.parse(`${dayOf(Date.now())}T00:00:00Z`);
  if (to < from) return invalid("end_date is before start_date.");
  if (from < today - ANALYTICS_MAX_DAYS * DAY_MS)
    return invalid("start_date is more than 90 days back from today.");
  if (to > from + ANALYTICS_MAX_DAYS * DAY_MS)
    return invalid("end_date is more than 90 days past start_date.");
  const types = (query.get("metric_types") ?? "").split(",").filter((t) => t !== "");
  if (types.length === 0) return invalid("metric_types is required.");
  const unknown = types.find((t) => !(STANDARD_METRICS as readonly string[]).includes(t));
  if (unknown) return invalid(`unknown metric type ${unknown}.`);
  const appTypes = query.get("app_types") ?? "ALL";
  if (!["ALL", "MOBILE", "TABLET", "WEB"].includes(appTypes)) return invalid("app_types is not valid.");
  const split = query.get("split_field") ?? "NO_SPLIT";
  if (split !== "NO_SPLIT") return invalid("the sandbox reports NO_SPLIT only.");

  const video = post.media.some((m) => m.type.startsWith("video/"));
  const seed = await postSeed("pinterest", post.id);
  const published = Date.parse(post.published_at);
  const now = Date.now();
  /** The Pin's counts at `time` (none before it existed), in Pinterest's names. */
  const countsAt = (time: number): PostMetrics | null =>
    time <= published ? null : metricsAt("pinterest", seed, minutesSince(published, Math.min(time, now)));
  /** The counts gained between `a` and `b`, as Pinterest reports a period. */
  const gained = (a: number, b: number) => {
    const high = countsAt(b);
    const low = countsAt(a);
    const minus = (key: keyof PostMetrics) => Math.max(0, (high?.[key] ?? 0) - (low?.[key] ?? 0));
    return pinterestMetrics(
      {
        impressions: minus("impressions"),
        saves: minus("saves"),
        likes: minus("likes"),
        comments: minus("comments"),
        shares: minus("shares"),
        quotes: minus("quotes"),
        engagement_rate: 0,
      },
      video,
    );
  };
  const requested = types as Metric[];
  const periodic = requested.filter((m) => !LIFETIME.has(m));
  const pick = (values: Record<Metric, number>, metrics: Metric[]) =>
    Object.fromEntries(metrics.map((m) => [m, values[m]]));
  const daily = [];
  for (let day = from; day <= to; day += DAY_MS) {
    const status = day + DAY_MS <= published ? "BEFORE_PIN_CREATED" : day > now ? "PROCESSING" : "READY";
    const metrics = status === "READY" ? pick(gained(day, day + DAY_MS), periodic) : {};
    daily.push({ date: dayOf(day), data_status: status, metrics });
  }
  const lifetime = pinterestMetrics((await e.metrics(post.id)) ?? metricsAt("pinterest", seed, 0), video);
  return {
    all: {
      daily_metrics: daily,
      summary_metrics: pick(gained(from, to + DAY_MS), periodic),
      lifetime_metrics: pick(
        lifetime,
        requested.filter((m) => LIFETIME.has(m)),
      ),
    },
  };
}
