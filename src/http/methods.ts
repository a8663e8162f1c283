// A known path asked with a method it does not serve is a 405 naming the methods it does, in `Allow`
// too (Laravel's answer), not a 404. What a path serves is read from the app's declared routes (Hono's
// `app.routes`: method and path of every handler), compiled once per isolate on the first such request.
import { methodNotAllowed } from "./errors";

type Declared = { method: string; path: string };

/** The order `Allow` lists methods in; HEAD is served wherever GET is (Hono answers it with GET's route). */
const ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const literal = (text: string) => text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `/api/v1/posts/:id` as a RegExp of the concrete paths it matches (`*` matches the rest). */
function pattern(path: string): RegExp {
  const source = path
    .split("/")
    .map((segment) => {
      if (segment === "*") return ".*";
      const param = /^:\w+(?:\{(.+)\})?$/.exec(segment);
      return param ? (param[1] ?? "[^/]+") : literal(segment);
    })
    .join("/");
  return new RegExp(`^${source}/?$`);
}

/**
 * The methods each path of `routes` serves, by path. Middleware (`ALL`) serves nothing by itself, and
 * paths under `skip` keep their own answers (the sandbox's emulators answer every path of theirs).
 */
export function methodMatcher(routes: () => readonly Declared[], skip: readonly string[]) {
  let compiled: Array<{ pattern: RegExp; method: string }> | undefined;
  return (path: string): string[] => {
    compiled ??= routes()
      .filter((route) => route.method !== "ALL" && !skip.some((prefix) => route.path.startsWith(prefix)))
      .map((route) => ({ pattern: pattern(route.path), method: route.method.toUpperCase() }));
    const served = new Set(compiled.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (served.has("GET")) served.add("HEAD");
    return ORDER.filter((method) => served.has(method));
  };
}

/** The 405 of `method` on `path`, or null when nothing is declared there (a 404) or the method is served. */
export function unservedMethod(method: string, path: string, served: readonly string[]) {
  if (served.length === 0 || served.includes(method.toUpperCase())) return null;
  return methodNotAllowed(method.toUpperCase(), path, served);
}
