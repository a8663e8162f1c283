// Meta's object ids (Instagram media and containers, Threads posts and containers) are decimal numbers
// that grow with time: an object made later has a larger id, so a list read newest first is in
// decreasing id order. The emulators draw theirs from the emulator's clock: the platform's leading
// digits, the clock's milliseconds (13 digits), then a sequence that orders ids drawn in the same
// millisecond (a request sees one frozen clock while it runs). The sequence starts at a random point in
// the lower half of its span, so two isolates drawing in the same millisecond rarely meet.

const CLOCK_DIGITS = 13;

/** A drawer of ids of `length` digits starting with `prefix`, each larger than the one before. */
export function growingIds(prefix: string, length: number, now: () => number = Date.now) {
  const sequenceDigits = length - prefix.length - CLOCK_DIGITS;
  if (sequenceDigits < 1) throw new Error(`growingIds: ${length} digits leave no room for a sequence`);
  const span = 10n ** BigInt(sequenceDigits);
  let last = 0n;
  return (): string => {
    const start = BigInt(Math.floor(Math.random() * Number(span / 2n)));
    const drawn = BigInt(Math.floor(now())) * span + start;
    last = drawn > last ? drawn : last + 1n;
    return `${prefix}${String(last).padStart(CLOCK_DIGITS + sequenceDigits, "0")}`;
  };
}
