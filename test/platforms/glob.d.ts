// Vite's import.meta.glob, as the unit tests use it to read sources (vitest transforms it).
interface ImportMeta {
  glob<T>(
    patterns: string | string[],
    options: { query?: string; import?: string; eager: true },
  ): Record<string, T>;
}
