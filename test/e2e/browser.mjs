// The one place the end-to-end tests get their browser. playwright-core brings no browser of its own,
// so this finds one, in this order:
//   1. CHROMIUM_PATH, when set (and then nothing else: a wrong path is an error, not a fallback);
//   2. the system's Chromium or Chrome: chromium, chromium-browser, google-chrome, google-chrome-stable,
//      on PATH or in /usr/bin;
//   3. Playwright's browser cache (PLAYWRIGHT_BROWSERS_PATH when set, else ~/.cache/ms-playwright):
//      chromium-<revision>/chrome-linux*/chrome, newest revision first;
//   4. on Debian, as root, with none of the above: Debian's `chromium` package, installed with apt-get;
// and otherwise fails with one line that says what to run.
//
// `node test/e2e/browser.mjs` prints the path it finds (installing as in 4 if need be); `.ci/run` uses
// it before the tests start.
import { spawnSync } from "node:child_process";
import { accessSync, constants, readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The flags every e2e test launches Chromium with: headless, no sandbox (root, containers), offline. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

const INSTALL_SCRIPT = "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium";
const LOCK = "/tmp/e2e-chromium-install.lock";
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What the finder looks at. Tests pass a fake; everything else uses the real machine. */
export const realSystem = {
  env: process.env,
  home: homedir(),
  cwd: process.cwd(),
  platform: process.platform,
  playwrightRoot: join(ROOT, "node_modules", "playwright-core"),
  uid: () => process.getuid?.() ?? -1,
  isExecutable(path) {
    try {
      if (!statSync(path).isFile()) return false;
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  list(dir) {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  },
  osRelease() {
    try {
      return readFileSync("/etc/os-release", "utf8");
    } catch {
      return "";
    }
  },
  /** Installs Debian's chromium; one install at a time (test files run in parallel). Exit status. */
  install() {
    // flock (util-linux, always on Debian) serialises concurrent finders; the second one then finds the
    // package installed and does nothing. apt-get's output goes to stderr, away from the test reporter.
    const script = `[ -x /usr/bin/chromium ] || { ${INSTALL_SCRIPT}; }`;
    const run = spawnSync("flock", [LOCK, "sh", "-c", script], { stdio: ["ignore", 2, 2] });
    return run.status ?? 1;
  },
};

const isDebian = (osRelease) => /^ID="?debian"?$/m.test(osRelease);

function systemBrowser(sys) {
  const dirs = (sys.env.PATH ?? "").split(delimiter).filter((dir) => isAbsolute(dir));
  for (const name of SYSTEM_NAMES) {
    for (const dir of [...dirs, "/usr/bin"]) {
      const path = join(dir, name);
      if (sys.isExecutable(path)) return path;
    }
  }
  return undefined;
}

/** Playwright's registry directory, as Playwright itself computes it. */
export function playwrightCache(sys) {
  const configured = sys.env.PLAYWRIGHT_BROWSERS_PATH;
  if (configured === "0") return join(sys.playwrightRoot, ".local-browsers");
  if (configured) return resolve(sys.cwd, configured);
  return join(sys.env.XDG_CACHE_HOME || join(sys.home, ".cache"), "ms-playwright");
}

function cachedBrowser(sys) {
  const cache = playwrightCache(sys);
  const revisions = sys
    .list(cache)
    .filter((name) => /^chromium-\d+$/.test(name))
    .sort((a, b) => Number(b.slice(9)) - Number(a.slice(9)));
  for (const revision of revisions) {
    const builds = sys.list(join(cache, revision)).filter((name) => name.startsWith("chrome-linux"));
    for (const build of builds.sort()) {
      const path = join(cache, revision, build, "chrome");
      if (sys.isExecutable(path)) return path;
    }
  }
  return undefined;
}

/** The one-line failure: what is missing and what to run. */
export class NoBrowserError extends Error {
  name = "NoBrowserError";
}

/**
 * The Chromium to drive: `{ path, source }`, source being `CHROMIUM_PATH`, `system`, `playwright` or
 * `installed`. Throws a NoBrowserError (one line) when there is none and none can be installed.
 */
export function findChromium(sys = realSystem) {
  const explicit = sys.env.CHROMIUM_PATH;
  if (explicit) {
    if (sys.isExecutable(explicit)) return { path: explicit, source: "CHROMIUM_PATH" };
    throw new NoBrowserError(
      `CHROMIUM_PATH=${explicit} is not an executable file: point it at a Chromium or Chrome binary, or unset it.`,
    );
  }
  const system = systemBrowser(sys);
  if (system) return { path: system, source: "system" };
  const cached = cachedBrowser(sys);
  if (cached) return { path: cached, source: "playwright" };

  const debian = isDebian(sys.osRelease());
  const root = sys.uid() === 0;
  if (debian && root) {
    const status = sys.install();
    const installed = systemBrowser(sys);
    if (status === 0 && installed) return { path: installed, source: "installed" };
    throw new NoBrowserError(
      `No Chromium found, and \`${INSTALL_SCRIPT}\` failed (exit ${status}): fix that, or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
  }
  const hint = debian
    ? "run `sudo apt-get update && sudo apt-get install -y chromium`, or set CHROMIUM_PATH"
    : sys.platform === "linux"
      ? "run `npx playwright-core install --with-deps chromium`, or set CHROMIUM_PATH"
      : "set CHROMIUM_PATH";
  throw new NoBrowserError(
    `No Chromium found for the end-to-end tests: ${hint} to a Chromium or Chrome binary.`,
  );
}

/**
 * A headless Chromium with a fresh persistent profile in `profileDir`, launched with CHROMIUM_ARGS.
 * The caller closes it.
 */
export async function launchChromium(profileDir, { path = findChromium().path } = {}) {
  const { chromium } = await import("playwright-core");
  return chromium.launchPersistentContext(profileDir, {
    executablePath: path,
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}

// `node test/e2e/browser.mjs`: print the path, or the one line and exit 1.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { path, source } = findChromium();
    process.stdout.write(`${path} (${source})\n`);
  } catch (error) {
    if (!(error instanceof NoBrowserError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
