// The browser finder's rules (./browser.mjs) against a fake machine: nothing is looked up on this one,
// and nothing is installed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { findChromium, NoBrowserError } from "./browser.mjs";

const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n';
const UBUNTU = 'NAME="Ubuntu"\nID=ubuntu\nID_LIKE=debian\n';

/**
 * A fake machine: `files` are the executables on it, `dirs` what listing a directory answers.
 * `afterInstall` are the executables an install would add; `installs` counts the installs asked for.
 */
function machine({
  env = {},
  files = [],
  dirs = {},
  uid = 1000,
  osRelease = DEBIAN,
  platform = "linux",
  installStatus = 0,
  afterInstall = [],
} = {}) {
  const executables = new Set(files);
  const sys = {
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...env },
    home: "/home/dev",
    cwd: "/work/project",
    platform,
    playwrightRoot: "/work/project/node_modules/playwright-core",
    uid: () => uid,
    isExecutable: (path) => executables.has(path),
    list: (dir) => dirs[dir] ?? [],
    osRelease: () => osRelease,
    installs: 0,
    install() {
      sys.installs += 1;
      if (installStatus === 0) for (const file of afterInstall) executables.add(file);
      return installStatus;
    },
  };
  return sys;
}

const CACHE = "/home/dev/.cache/ms-playwright";
const cache = (revision, build = "chrome-linux64") => ({
  dirs: { [CACHE]: [`chromium-${revision}`], [`${CACHE}/chromium-${revision}`]: [build] },
  files: [`${CACHE}/chromium-${revision}/${build}/chrome`],
});

/** The one-line failure of `findChromium(sys)`. */
function failure(sys) {
  try {
    findChromium(sys);
  } catch (error) {
    assert.ok(error instanceof NoBrowserError, String(error));
    assert.ok(!error.message.includes("\n"), `more than one line: ${error.message}`);
    return error.message;
  }
  assert.fail("a browser was found");
}

test("CHROMIUM_PATH comes first, before any system browser", () => {
  const sys = machine({
    env: { CHROMIUM_PATH: "/opt/chrome/chrome" },
    files: ["/opt/chrome/chrome", "/usr/bin/chromium"],
  });
  assert.deepEqual(findChromium(sys), { path: "/opt/chrome/chrome", source: "CHROMIUM_PATH" });
});

test("a CHROMIUM_PATH that is not executable is an error, not a reason to look elsewhere", () => {
  const sys = machine({ env: { CHROMIUM_PATH: "/nowhere/chrome" }, files: ["/usr/bin/chromium"] });
  assert.match(failure(sys), /^CHROMIUM_PATH=\/nowhere\/chrome is not an executable file/);
});

test("the system browser: chromium, chromium-browser, google-chrome, google-chrome-stable, PATH first", () => {
  const all = [
    "/usr/bin/google-chrome-stable",
    "/usr/bin/google-chrome",
    "/usr/bin/chromium-browser",
    "/usr/local/bin/chromium",
  ];
  for (let n = all.length; n > 0; n--) {
    const files = all.slice(0, n);
    assert.equal(findChromium(machine({ files })).path, files.at(-1));
  }
  // Not on PATH, but in /usr/bin.
  const offPath = machine({ env: { PATH: "/home/dev/bin" }, files: ["/usr/bin/google-chrome"] });
  assert.deepEqual(findChromium(offPath), { path: "/usr/bin/google-chrome", source: "system" });
  // Relative PATH entries are ignored.
  assert.throws(
    () => findChromium(machine({ env: { PATH: "bin" }, files: ["bin/chromium"] })),
    NoBrowserError,
  );
});

test("a system browser is preferred to Playwright's cache", () => {
  const { dirs, files } = cache(1255);
  const sys = machine({ dirs, files: [...files, "/usr/bin/chromium"] });
  assert.equal(findChromium(sys).path, "/usr/bin/chromium");
});

test("Playwright's cache: the newest chromium revision, any chrome-linux* build", () => {
  const sys = machine({
    dirs: {
      [CACHE]: [
        "chromium-999",
        "chromium-1255",
        "chromium_headless_shell-1300",
        "ffmpeg-1011",
        "chromium-1100",
      ],
      [`${CACHE}/chromium-1255`]: ["chrome-linux", "INSTALLATION_COMPLETE"],
      [`${CACHE}/chromium-1100`]: ["chrome-linux64"],
      [`${CACHE}/chromium-999`]: ["chrome-linux"],
    },
    files: [`${CACHE}/chromium-1255/chrome-linux/chrome`, `${CACHE}/chromium-1100/chrome-linux64/chrome`],
  });
  assert.deepEqual(findChromium(sys), {
    path: `${CACHE}/chromium-1255/chrome-linux/chrome`,
    source: "playwright",
  });
  // A revision directory without its executable (an interrupted download) is skipped.
  const partial = machine({
    dirs: { [CACHE]: ["chromium-1300", "chromium-1255"], [`${CACHE}/chromium-1300`]: ["chrome-linux64"] },
    files: [],
  });
  assert.throws(() => findChromium(partial), NoBrowserError);
});

test("Playwright's cache follows PLAYWRIGHT_BROWSERS_PATH and XDG_CACHE_HOME as Playwright does", () => {
  const at = (root) => ({
    dirs: { [root]: ["chromium-1255"], [`${root}/chromium-1255`]: ["chrome-linux-arm64"] },
    files: [`${root}/chromium-1255/chrome-linux-arm64/chrome`],
  });
  const found = (env, root) => findChromium(machine({ env, ...at(root) })).path;
  assert.equal(
    found({ PLAYWRIGHT_BROWSERS_PATH: "/srv/browsers" }, "/srv/browsers"),
    "/srv/browsers/chromium-1255/chrome-linux-arm64/chrome",
  );
  assert.equal(
    found({ PLAYWRIGHT_BROWSERS_PATH: "pw" }, "/work/project/pw"),
    "/work/project/pw/chromium-1255/chrome-linux-arm64/chrome",
  );
  assert.equal(
    found({ PLAYWRIGHT_BROWSERS_PATH: "0" }, "/work/project/node_modules/playwright-core/.local-browsers"),
    "/work/project/node_modules/playwright-core/.local-browsers/chromium-1255/chrome-linux-arm64/chrome",
  );
  assert.equal(
    found({ XDG_CACHE_HOME: "/var/cache/dev" }, "/var/cache/dev/ms-playwright"),
    "/var/cache/dev/ms-playwright/chromium-1255/chrome-linux-arm64/chrome",
  );
  // With PLAYWRIGHT_BROWSERS_PATH set, the default cache is not looked at.
  const elsewhere = machine({ env: { PLAYWRIGHT_BROWSERS_PATH: "/srv/browsers" }, ...cache(1255) });
  assert.throws(() => findChromium(elsewhere), NoBrowserError);
});

test("Debian as root with no browser: installs Debian's chromium, then uses it", () => {
  const sys = machine({ uid: 0, afterInstall: ["/usr/bin/chromium"] });
  assert.deepEqual(findChromium(sys), { path: "/usr/bin/chromium", source: "installed" });
  assert.equal(sys.installs, 1);
});

test("no install when a browser is already there", () => {
  for (const sys of [
    machine({ uid: 0, files: ["/usr/bin/chromium"] }),
    machine({ uid: 0, ...cache(1255) }),
    machine({ uid: 0, env: { CHROMIUM_PATH: "/opt/chrome" }, files: ["/opt/chrome"] }),
  ]) {
    findChromium(sys);
    assert.equal(sys.installs, 0);
  }
});

test("a failed install is one line naming the command", () => {
  const sys = machine({ uid: 0, installStatus: 100 });
  const message = failure(sys);
  assert.equal(sys.installs, 1);
  assert.match(message, /apt-get install -y chromium/);
  assert.match(message, /exit 100/);
});

test("anywhere else: no install, one line saying what to run", () => {
  const notRoot = machine({ uid: 1000 });
  assert.equal(
    failure(notRoot),
    "No Chromium found for the end-to-end tests: run `sudo apt-get update && sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  const ubuntuRoot = machine({ uid: 0, osRelease: UBUNTU });
  assert.match(
    failure(ubuntuRoot),
    /run `npx playwright-core install --with-deps chromium`, or set CHROMIUM_PATH/,
  );
  const mac = machine({ osRelease: "", platform: "darwin" });
  assert.equal(
    failure(mac),
    "No Chromium found for the end-to-end tests: set CHROMIUM_PATH to a Chromium or Chrome binary.",
  );
  for (const sys of [notRoot, ubuntuRoot, mac]) assert.equal(sys.installs, 0);
});
