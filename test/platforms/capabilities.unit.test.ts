// Capabilities are derived from what a definition declares (capabilitiesOf), and docs/platforms.md's
// "At a glance" table says the same for every platform, so the doc cannot drift from the code.
import { describe, expect, it } from "vitest";
import doc from "../../docs/platforms.md?raw";
import type { Platform } from "../../src/db/enums";
import { type Capabilities, capabilitiesOf } from "../../src/platforms/capabilities";
import { SPECS } from "../../src/platforms/catalog";

/** The "At a glance" table: its cells by row label, then by column label. */
function glance(): Map<string, Map<string, string>> {
  const section = doc.split("## At a glance")[1]!.split("\n## ")[0]!;
  const lines = section.split("\n").filter((line) => line.startsWith("|"));
  const cells = (line: string) =>
    line
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim());
  const [header, , ...rows] = lines.map(cells);
  return new Map(
    rows.map((row) => [row[0]!, new Map(header!.slice(1).map((label, i) => [label, row[i + 1]!]))]),
  );
}

const no = (cell: string) => cell === "–";
/** What the table's cells say of a capability. */
const ROWS: Record<keyof Capabilities, [row: string, read: (cell: string) => unknown]> = {
  text: ["Text only", (cell) => !no(cell)],
  images: ["Images", (cell) => !no(cell)],
  // Several media in one post: "≤ N" above one, or "several".
  carousels: ["Images", (cell) => /several/.test(cell) || Number(/≤ (\d+)/.exec(cell)?.[1] ?? 0) > 1],
  video: ["Video", (cell) => !no(cell)],
  threads: [
    "Several items",
    (cell) => ({ "reply chain": "chain", comments: "comments", "–": "none" })[cell] ?? cell,
  ],
  stories: ["Stories", (cell) => !no(cell)],
  insights: ["Metrics", (cell) => !no(cell)],
  comments: ["Comments read", (cell) => !no(cell)],
  replies: ["Auto-plug reply", (cell) => !no(cell)],
  // The inbox's calls the platform has, in the order reply, hide, delete ("–": none).
  commentActions: ["Comment actions", (cell) => (no(cell) ? [] : cell.split(", "))],
};

describe("capabilitiesOf", () => {
  const table = glance();
  const platforms = Object.keys(SPECS) as Platform[];

  it("has a column for every platform, by its label", () => {
    const columns = [...table.get("Text only")!.keys()];
    expect(columns.sort()).toEqual(platforms.map((p) => (p === "twitter" ? "X" : SPECS[p].label)).sort());
  });

  it.each(platforms)("agrees with the At a glance table for %s", (platform) => {
    const derived = capabilitiesOf(SPECS[platform]);
    const column = platform === "twitter" ? "X" : SPECS[platform].label;
    for (const [capability, [row, read]] of Object.entries(ROWS) as Array<
      [keyof Capabilities, (typeof ROWS)["text"]]
    >) {
      const cell = table.get(row)?.get(column);
      expect(cell, `${row} for ${column}`).toBeDefined();
      expect(derived[capability], `${capability} of ${platform} (${row}: ${cell})`).toEqual(read(cell!));
    }
  });
});
