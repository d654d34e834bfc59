import { installVerified } from './private-files.ts'

/**
 * Loads sharp's native addon, embedded as a plain file by the executable's build, from the
 * private directory. Left to itself, Bun would unpack it into the shared temporary directory
 * under a predictable name, where another local user could plant a file first.
 */
export function loadEmbeddedAddon(embeddedPath: string): unknown {
  const path = installVerified({ path: embeddedPath, name: 'sharp', extension: '.node' })
  const module = { exports: {} as unknown }
  process.dlopen(module, path)
  return module.exports
}
