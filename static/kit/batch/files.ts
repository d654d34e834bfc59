/**
 * Files from wherever the reader gives them: the file button, a folder button, a drop (files
 * or whole folders, walked recursively with their sub-folders) or a paste. Each keeps the path
 * it had under what was chosen, so a ZIP of the results has the same tree.
 */
export interface PickedFile {
  readonly file: File
  readonly path: string
}

export function fromFileList(list: FileList | readonly File[]): PickedFile[] {
  return [...list].map((file) => ({ file, path: file.webkitRelativePath || file.name }))
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject))
}

async function walk(entry: FileSystemEntry, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    )
    out.push({ file, path: entry.fullPath.replace(/^\//, '') })
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  // readEntries answers in pages (100 at a time in Chromium) until it answers with none.
  for (let page = await readEntries(reader); page.length > 0; page = await readEntries(reader))
    for (const child of page) await walk(child, out)
}

export async function fromDataTransfer(transfer: DataTransfer): Promise<PickedFile[]> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => Boolean(entry))
  if (entries.length === 0) return fromFileList(transfer.files)
  const out: PickedFile[] = []
  for (const entry of entries) await walk(entry, out)
  return out
}

/**
 * What a browser would save an address as: the last segment of its path, decoded (a slash in it
 * kept out of the ZIP's folders), else its host.
 */
export function urlFileName(url: string): string {
  const { pathname, host } = new URL(url)
  const last = pathname.slice(pathname.lastIndexOf('/') + 1)
  let decoded = last
  try {
    decoded = decodeURIComponent(last)
  } catch {
    // Not valid percent-encoding: the name as written.
  }
  return decoded.replaceAll('/', '_') || host
}

/**
 * Whether a file looks like an image this server reads: by its type, or by an extension the
 * server lists (a TIFF or HEIC often comes with no type at all). The server has the last word.
 */
export function looksReadable(file: File, extensions: ReadonlySet<string>): boolean {
  if (file.type.startsWith('image/')) return true
  const extension = /\.([^./]+)$/.exec(file.name)?.[1]?.toLowerCase()
  return extension !== undefined && extensions.has(extension)
}
