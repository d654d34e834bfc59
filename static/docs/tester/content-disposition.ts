/** The file name in a Content-Disposition header: filename*=UTF-8'' first, then filename="…". */
export function filenameFrom(header: string | null): string | undefined {
  if (!header) return undefined
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header)
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!)
    } catch {
      // A malformed extended name falls back to the plain one.
    }
  }
  return /filename="((?:[^"\\]|\\.)*)"/.exec(header)?.[1]?.replace(/\\(.)/g, '$1')
}
