import { readFileSync } from 'node:fs'
import { BUILT_ASSETS } from '../../dist/docs/assets.ts'

/**
 * The one module that knows how the docs site's browser assets are embedded: built by
 * src/build/docs-assets.ts into dist/docs with content-hashed names, imported as files so the
 * executable carries them. Pages refer to them by logical name; the URL carries the hash, so
 * they can be cached for a year.
 */
export type AssetName = keyof typeof BUILT_ASSETS

export interface Asset {
  readonly url: string
  readonly type: string
  /** Read once, then kept: a few files, a few hundred KB, embedded in the executable anyway. */
  bytes(): Uint8Array
}

export const ASSET_PREFIX = '/docs/assets/'

const read = new Map<AssetName, Uint8Array>()

export function asset(name: AssetName): Asset {
  const built = BUILT_ASSETS[name]
  const bytes = () => {
    let content = read.get(name)
    if (!content) read.set(name, (content = readFileSync(built.file)))
    return content
  }
  return { url: ASSET_PREFIX + built.name, type: built.type, bytes }
}

/** The asset a hashed file name refers to, for the route that serves them. */
export function assetByFileName(fileName: string): Asset | undefined {
  const entry = (Object.keys(BUILT_ASSETS) as AssetName[]).find(
    (name) => BUILT_ASSETS[name].name === fileName,
  )
  return entry ? asset(entry) : undefined
}
