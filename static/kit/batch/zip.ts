/**
 * "Download all" as one ZIP made in the browser by client-zip, loaded only when asked for. It
 * streams the entries into the archive without compressing them again: images are compressed
 * already, so deflate would cost time for almost no bytes.
 */
export interface ZipEntry {
  readonly name: string
  readonly input: Blob | string
}

export async function zipOf(entries: readonly ZipEntry[]): Promise<Blob> {
  const { downloadZip } = await import('client-zip')
  const unique = uniqueNames(entries.map((entry) => entry.name))
  return downloadZip(
    entries.map((entry, i) => ({ name: unique[i]!, input: entry.input, lastModified: new Date() })),
  ).blob()
}

/** Two results with one name (a.png and a.jpg both to a.webp) must not overwrite each other. */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>()
  return names.map((name) => {
    let candidate = name
    for (let n = 2; seen.has(candidate.toLowerCase()); n++)
      candidate = name.replace(/(\.[^./]*)?$/, ` (${n})$1`)
    seen.add(candidate.toLowerCase())
    return candidate
  })
}

/** Saves a blob under a name, as a click on a download link does. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 60_000)
}
