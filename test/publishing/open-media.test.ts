// Media bytes for platforms that take them: streamed out of R2 whole or by range, never buffered, and a
// file no longer stored is a permanent failure of the row (retrying cannot bring it back).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../src/platforms/types";
import { openMedia } from "../../src/publishing/attempt";
import { expectSameBytes } from "../support/bytes";

const bytes = new Uint8Array(1000).map((_, i) => i % 251);

describe("openMedia", () => {
  it("streams the whole file, or exactly the range asked for", async () => {
    const key = `test/open-media/${crypto.randomUUID()}`;
    await env.MEDIA.put(key, bytes);
    const open = openMedia(env.MEDIA, key);
    await expectSameBytes(new Uint8Array(await new Response(await open()).arrayBuffer()), bytes);
    const part = new Uint8Array(await new Response(await open({ offset: 100, length: 250 })).arrayBuffer());
    await expectSameBytes(part, bytes.slice(100, 350));
  });

  it("fails a file that is no longer stored for good", async () => {
    const error = await openMedia(env.MEDIA, `test/open-media/missing-${crypto.randomUUID()}`)().catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ kind: "permanent", code: "media_missing" });
  });
});
