import { dlopen } from 'bun:ffi'
import { EMBEDDED_LIBVIPS } from './embedded-libvips.ts'
import { installVerified, usePrivateDirectory } from './private-files.ts'

export { NativeLibraryError } from './private-files.ts'

/**
 * Makes the embedded libvips available to sharp: sharp's addon links against libvips by
 * soname, and a library already loaded under that soname satisfies it. A no-op when running
 * from source. Must run before sharp is first imported.
 */
export function prepareEmbeddedLibvips(libDir: string): string | undefined {
  if (!EMBEDDED_LIBVIPS) return undefined
  usePrivateDirectory(libDir)
  const path = installVerified({ ...EMBEDDED_LIBVIPS, name: 'libvips-cpp', extension: '.so' })
  dlopen(path, { vips_version: { args: ['i32'], returns: 'i32' } })
  return path
}
