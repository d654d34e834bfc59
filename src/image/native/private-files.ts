import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'

/**
 * The executable carries native libraries inside itself, but the dynamic linker only loads
 * files. They are unpacked into one private, per-user directory, named by content hash, and
 * verified by hash every time before they are loaded: never from a place someone else could
 * have written to.
 */
export class NativeLibraryError extends Error {}

const HINT = 'set IMGAPI_LIB_DIR (or --lib-dir) to a writable directory owned by this user'

let privateDir: string | undefined

export function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
}

/** Creates the directory 0700 if needed and refuses one that another user controls. */
export function usePrivateDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (error) {
    throw new NativeLibraryError(`cannot create ${dir} (${(error as NodeJS.ErrnoException).code}); ${HINT}`)
  }
  const stat = lstatSync(dir)
  if (!stat.isDirectory())
    throw new NativeLibraryError(`${dir} is not a directory (symbolic links are refused); ${HINT}`)
  if (process.getuid && stat.uid !== process.getuid()) {
    throw new NativeLibraryError(`${dir} is owned by uid ${stat.uid}, not by this user; ${HINT}`)
  }
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700)
  privateDir = dir
}

/**
 * The SHA-256 of a regular file (never through a symbolic link), or undefined when there is
 * none. Read through one small reused buffer: reading libvips' 18 MiB into a new buffer first
 * cost about 10 ms of every start in faulting that buffer's pages in.
 */
function hashOfFile(path: string): string | undefined {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch {
    return undefined
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined
    const hasher = new Bun.CryptoHasher('sha256')
    const chunk = Buffer.allocUnsafe(1 << 20)
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk))
      hasher.update(chunk.subarray(0, read))
    return hasher.digest('hex')
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** Writes to a unique temporary name, then renames: concurrent starts never see half a file. */
function writeAtomically(target: string, bytes: Uint8Array): void {
  const temporary = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`
  try {
    writeFileSync(temporary, bytes, { mode: 0o500, flag: 'wx' })
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new NativeLibraryError(`cannot write ${target} (${(error as NodeJS.ErrnoException).code}); ${HINT}`)
  }
}

export interface EmbeddedFile {
  /** Path inside the executable ($bunfs). */
  readonly path: string
  /** SHA-256 recorded at build time; computed from the embedded bytes when absent. */
  readonly sha256?: string
  readonly name: string
  readonly extension: string
}

/**
 * Unpacks an embedded file into the private directory (once per content) and returns its
 * path after checking that the bytes on disk are exactly the embedded ones. Synchronous
 * because it also runs inside require(), when sharp loads its addon.
 */
export function installVerified(file: EmbeddedFile): string {
  if (!privateDir) throw new NativeLibraryError('the private library directory was not set up')
  const expected = file.sha256 ?? sha256(readFileSync(file.path))
  const target = join(privateDir, `${file.name}-${expected.slice(0, 16)}${file.extension}`)
  if (hashOfFile(target) === expected) return target
  writeAtomically(target, readFileSync(file.path))
  if (hashOfFile(target) !== expected) {
    throw new NativeLibraryError(`${target} does not match the embedded library after writing it; ${HINT}`)
  }
  return target
}
