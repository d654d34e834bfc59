/*
 * What `imgapi compress` works on. A file named on the command line is always taken (the
 * shell's globs arrive as such names); in a folder, walked recursively, a file is taken when
 * its first bytes look like an image, or when its name claims one (a broken photo.jpg is
 * reported, not passed over in silence). The output folder is never walked into, and a folder
 * reached again through a symbolic link (a loop) is walked once.
 */
import { open, readdir, realpath, stat } from 'node:fs/promises'
import { basename, extname, join, relative, resolve } from 'node:path'
import { FORMAT_TABLE } from '../formats/format-table.ts'
import { looksLikeImage } from '../image/sniff.ts'

export interface InputFile {
  readonly path: string
  /** Where it sits under the folder it was found in (its own name for a file named alone): kept under --out. */
  readonly relative: string
}

/** An input named on the command line that cannot be read at all. */
export interface MissingInput {
  readonly path: string
  readonly detail: string
}

const HEAD_BYTES = 512
const IMAGE_EXTENSIONS = new Set(
  Object.values(FORMAT_TABLE).flatMap((format) => format.extensions as readonly string[]),
)

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r')
  try {
    const head = new Uint8Array(HEAD_BYTES)
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0)
    return head.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}

async function isImageFile(path: string): Promise<boolean> {
  if (IMAGE_EXTENSIONS.has(extname(path).slice(1).toLowerCase())) return true
  return readHead(path).then(looksLikeImage, () => false)
}

export async function collectInputs(
  args: readonly string[],
  outDir: string | undefined,
): Promise<{ files: InputFile[]; missing: MissingInput[] }> {
  const files: InputFile[] = []
  const missing: MissingInput[] = []
  const skip = outDir ? await realpath(outDir).catch(() => resolve(outDir)) : undefined
  const visited = new Set<string>()
  async function walk(dir: string, root: string): Promise<void> {
    const real = await realpath(dir)
    if (real === skip || visited.has(real)) return
    visited.add(real)
    const entries = await readdir(dir, { withFileTypes: true })
    entries.sort((a, b) => (a.name < b.name ? -1 : 1))
    for (const entry of entries) {
      const path = join(dir, entry.name)
      const info = entry.isSymbolicLink() ? await stat(path).catch(() => undefined) : entry
      if (!info) continue
      if (info.isDirectory()) await walk(path, root)
      else if (info.isFile() && (await isImageFile(path)))
        files.push({ path, relative: relative(root, path) })
    }
  }
  for (const arg of args) {
    const info = await stat(arg).catch((error: NodeJS.ErrnoException) => error)
    if (info instanceof Error)
      missing.push({ path: arg, detail: info.code === 'ENOENT' ? 'no such file or folder' : info.message })
    else if (info.isDirectory()) await walk(arg, arg)
    else files.push({ path: arg, relative: basename(arg) })
  }
  return { files, missing }
}
