/** A format as people write it (WebP, JPEG XL), for labels; the id stays what the API takes. */
const NAMES: Readonly<Record<string, string>> = { webp: 'WebP', jxl: 'JPEG XL' }

export function formatName(id: string): string {
  return NAMES[id] ?? id.toUpperCase()
}
