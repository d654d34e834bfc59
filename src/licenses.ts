import { resolve } from 'node:path'
import { EMBEDDED_NOTICES } from './notices.ts'

/** `--licenses`: the notices the executable carries; from source, the same text built on the spot. */
export async function licensesText(): Promise<string> {
  if (EMBEDDED_NOTICES) return Bun.file(EMBEDDED_NOTICES).text()
  const { thirdPartyNotices } = await import('./build/third-party-notices.ts')
  return thirdPartyNotices(resolve(import.meta.dir, '..'), process.arch === 'arm64' ? 'arm64' : 'x64')
}
