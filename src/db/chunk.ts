// D1 takes at most 100 bound parameters per statement: multi-row inserts are split accordingly.
export const D1_MAX_PARAMS = 100;

export function chunkRows<T>(rows: T[], paramsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / paramsPerRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}
