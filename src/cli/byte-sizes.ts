/*
 * Sizes as people type them on a command line (`--max-bytes 200k`). Decimal units are powers of
 * 1000 (k, kB, M, MB, G, GB: what file managers and the web show); binary units name their base
 * (KiB, MiB, GiB: powers of 1024). A bare number is bytes. Units ignore case, except that only
 * the `i` forms are binary, so `200KB` and `200kb` are both 200,000.
 */
const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  m: 1e6,
  mb: 1e6,
  g: 1e9,
  gb: 1e9,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
}

/** Bytes, rounded down to whole ones; undefined when the text is not a size (the caller's schema then says what it expected). */
export function parseByteSize(text: string): number | undefined {
  const match = /^\s*(\d{1,15}(?:\.\d{1,15})?)\s*([a-z]*)\s*$/i.exec(text)
  const factor = match ? UNITS[match[2]!.toLowerCase()] : undefined
  if (!match || factor === undefined) return undefined
  return Math.floor(Number(match[1]) * factor)
}

/** How the help text describes a size. */
export const BYTE_SIZE_HINT =
  'bytes, or with a unit: 200k, 1.5M (k, M, G = 1000s), 200KiB (KiB, MiB, GiB = 1024s)'

/** Bytes for people: 1.2 MB, 340 kB (decimal, as the sizes they type). */
export function formatBytes(bytes: number): string {
  const size = Math.abs(bytes)
  if (size < 1e3) return `${bytes} B`
  if (size < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`
  if (size < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`
  return `${(bytes / 1e9).toFixed(2)} GB`
}
