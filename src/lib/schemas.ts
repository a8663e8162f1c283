// The zod primitives every resource's schemas are built from: one rule for each kind of input (ids in
// bodies, queries and paths; page numbers; dates; colours) and the shared shapes of answers. Messages
// use Laravel's `:attribute` placeholder, which the error module fills in with the field's name.
import { z } from "zod";

const INTEGER = "The :attribute field must be a positive integer.";
const REQUIRED = "The :attribute field is required.";
/** The id rule's message; a missing value keeps Laravel's "is required". */
const idError = (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : INTEGER);
const DIGITS = /^[1-9][0-9]{0,15}$/;

/** A positive safe integer in a JSON body. JSON has one number type: 1.0 and 1e1 arrive as 1 and 10. */
export const bodyId = () =>
  z
    .int({ error: idError })
    .min(1, { error: INTEGER })
    .max(Number.MAX_SAFE_INTEGER, { error: INTEGER })
    .meta({ example: 1 });

/**
 * A positive safe integer written in a query or a path: plain decimal digits only, so `0x1`, `1e1`,
 * `1.0`, ` 7 ` and `007` are refused with the same message as a body id.
 */
export const textId = () =>
  z
    .string({ error: idError })
    .regex(DIGITS, { error: INTEGER })
    .transform(Number)
    // Sixteen digits can pass Number.MAX_SAFE_INTEGER, where two ids would collide.
    .pipe(z.number().refine(Number.isSafeInteger, { error: INTEGER }))
    .meta({ type: "integer", minimum: 1, example: 1 });

/** `{id}` of a resource path. */
export const idParams = z.object({ id: textId() });

/** A whole number from a query string, plain digits within [min, max]. */
export const queryInt = (min: number, max: number) => {
  const message = `The :attribute field must be an integer from ${min} to ${max}.`;
  return z
    .string({ error: message })
    .regex(/^[0-9]{1,16}$/, { error: message })
    .transform(Number)
    .pipe(z.int().min(min, { error: message }).max(max, { error: message }))
    .meta({ type: "integer", minimum: min, maximum: max });
};

export const MAX_PER_PAGE = 100;

/** `page` and `per_page` of a paginated list. */
export const pageQuery = (defaultPerPage = MAX_PER_PAGE) => ({
  page: queryInt(1, 1_000_000).default(1),
  per_page: queryInt(1, MAX_PER_PAGE).default(defaultPerPage),
});

/**
 * A list's cursor: the page starts below this id. The list's `next_page_url` carries it (the last item of
 * the page), so a client that follows it reads every page at the cost of the first (src/http/pagination.ts).
 */
export const beforeIdQuery = () =>
  textId().optional().meta({
    description:
      "Where the page starts: the items older than this id. `next_page_url` carries it (the last item of the page it came from), so following it reads each page from there, at the cost of page 1 however deep, and never repeats an item that moved down a page because newer ones arrived. Page numbers without it work as usual.",
  });

/** `true`/`false` (or 1/0) in a query string. */
export const queryFlag = () =>
  z
    .enum(["true", "false", "1", "0"], { error: "The :attribute field must be true or false." })
    .transform((v) => v === "true" || v === "1")
    .meta({ type: "boolean" });

/** ISO 8601 with an offset or Z, turned into a Date. */
export const isoDateTime = () =>
  z.iso
    .datetime({ offset: true })
    .transform((value) => new Date(value))
    .meta({ example: "2026-11-21T09:15:00+01:00" });

export const hexColor = () =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, { error: "The color must be a hex color such as #4F46E5." })
    .meta({ example: "#4F46E5" });

/** A timestamp as answers render it: ISO 8601 in the workspace's zone. */
export const zonedTime = () => z.string().meta({ example: "2026-11-21T09:15:00+01:00" });

/** `{message}` answers of deletes and other calls that return no record. */
export const messageSchema = z.object({ message: z.string() }).meta({ id: "Message" });

/** Laravel's simple paginator fields (simplePage in src/http/pagination.ts): a list that is not counted. */
export const simplePageFields = {
  current_page: z.int(),
  per_page: z.int(),
  next_page_url: z.string().nullable().meta({ description: "The next page, or null on the last one." }),
  prev_page_url: z.string().nullable(),
};

/** Laravel's LengthAwarePaginator fields around a page of `item`. */
export const paginated = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    current_page: z.int(),
    first_page_url: z.string(),
    from: z.int().nullable(),
    last_page: z.int(),
    last_page_url: z.string(),
    links: z.array(z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() })),
    next_page_url: z.string().nullable(),
    path: z.string(),
    per_page: z.int(),
    prev_page_url: z.string().nullable(),
    to: z.int().nullable(),
    total: z.int(),
  });

/** The longest URL a browser is sent back to (callback_url, redirect_url). */
export const CALLBACK_URL_MAX = 2048;

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]"]);
const isLoopback = (hostname: string) => LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);

/**
 * A URL the service sends a browser back to, with parameters of its own added: absolute, https (http
 * only on loopback), no credentials, no fragment, none of `reserved`. `label` names the field in messages.
 */
export const returnUrl = (label: string, reserved: readonly string[]) =>
  z
    .string()
    .max(CALLBACK_URL_MAX)
    .superRefine((value, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: "custom", message: `The ${label} ${message}` });
      if (!URL.canParse(value)) return fail("must be an absolute URL.");
      const url = new URL(value);
      if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
        return fail("must use https (http is allowed only for localhost, 127.0.0.1 and [::1]).");
      }
      if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(value)) {
        return fail("must not contain a user name or password.");
      }
      if (value.includes("#")) return fail("must not contain a fragment (#).");
      const taken = reserved.filter((name) => url.searchParams.has(name));
      if (taken.length > 0) {
        return fail(`must not already contain the parameters the service adds: ${taken.join(", ")}.`);
      }
    })
    // The URL serialisation (spaces and non-ASCII percent-encoded) is what the Location header carries.
    .transform((value) => new URL(value).href);

/** The answer that starts a browser flow (delegation, account connect): a single-use link. */
export const authorizeLinkSchema = (id: string) =>
  z
    .strictObject({
      authorize_url: z.url().meta({
        description: "Single-use link for the user's browser; it names nothing of the request.",
        example:
          "https://api.example.com/api/oauth/delegate/authorize/JOKxD9Gg_cz3r7xcenbjxAMLUCxj4Re63QXin0G_NlYw",
      }),
      expires_in: z.int().meta({ description: "Seconds the link stays usable.", example: 900 }),
    })
    .meta({ id });

/** Zones the runtime knows; an unknown zone would break every timestamp of the workspace (and a queue's slots). */
export const timezone = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: "The timezone must be a valid IANA time zone such as Europe/Paris." },
);
