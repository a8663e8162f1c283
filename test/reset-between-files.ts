import { afterAll, vi } from "vitest";

// Files share a runtime (api, system) or a module graph (unit): what one file faked or replaced must not
// reach the next.
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
