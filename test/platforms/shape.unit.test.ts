/// <reference types="vite/client" />
// One platform, one pair of folders of one shape (docs/contributing.md, "Adding a platform"): every
// adapter folder (src/platforms/<p>/) and every emulator folder (src/sandbox/<p>/) holds the same files
// with the same roles, and no emulator imports adapter code, so a misreading of a platform's docs cannot
// hide in both.
import { describe, expect, it } from "vitest";
import { PLATFORMS } from "../../src/db/enums";

// Every source file of both sides, by path, as text (read by Vite at collection, nothing run).
const ADAPTERS = import.meta.glob<string>("../../src/platforms/*/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});
const EMULATORS = import.meta.glob<string>("../../src/sandbox/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

/**
 * The roles of an adapter folder; `channels.ts` only where the login is not the place posts go,
 * `comments.ts` only where the platform lets apps manage comments (WITH_COMMENTS).
 */
const ADAPTER = ["api", "index", "media", "publish", "read", "rules", "schemas", "settings", "token"];
/** The roles of an emulator folder; `channels.ts` likewise. */
const EMULATOR = ["errors", "index", "media", "publish", "read", "rules", "token"];
const WITH_CHANNELS = new Set(["facebook", "linkedin", "youtube"]);
/** `comments.ts` (answering, hiding, deleting comments) where the platform lets an app manage them. */
const WITH_COMMENTS = new Set(["facebook", "instagram", "linkedin", "threads", "twitter", "youtube"]);

const filesOf = (files: Record<string, string>, folder: string) =>
  Object.keys(files)
    .filter((file) => file.startsWith(`../../${folder}/`) && !file.slice(folder.length + 7).includes("/"))
    .map((file) => file.slice(folder.length + 7, -3))
    .sort();

const expected = (roles: string[], platform: string) =>
  [
    ...roles,
    ...(WITH_CHANNELS.has(platform) ? ["channels"] : []),
    ...(WITH_COMMENTS.has(platform) ? ["comments"] : []),
  ].sort();

describe("every platform is a pair of folders of one shape", () => {
  it.each(PLATFORMS)("%s: the adapter folder has the adapter's roles, and only those", (platform) => {
    expect(filesOf(ADAPTERS, `src/platforms/${platform}`)).toEqual(expected(ADAPTER, platform));
  });

  it.each(PLATFORMS)("%s: the emulator folder has the emulator's roles, and only those", (platform) => {
    expect(filesOf(EMULATORS, `src/sandbox/${platform}`)).toEqual(expected(EMULATOR, platform));
  });

  it("no file of the emulators (theirs or their shared kernel) imports adapter code", () => {
    // An adapter's folder, the Meta adapters' shared module, or the registry of definitions.
    const adapterCode = new RegExp(`platforms/(${PLATFORMS.join("|")}|meta|catalog)(/|$)`);
    const offenders = Object.entries(EMULATORS).flatMap(([file, source]) =>
      [...source.matchAll(/from "([^"]+)"/g)]
        .map((m) => m[1]!)
        .filter((spec) => adapterCode.test(spec))
        .map((spec) => `${file} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
    expect(Object.keys(EMULATORS).length).toBeGreaterThan(30);
  });
});
