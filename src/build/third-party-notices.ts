import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * THIRD-PARTY-NOTICES: what the executable carries and under which terms, assembled from the
 * installed packages' own licence files (never hand-copied): the Bun runtime, every package
 * the server imports at run time with its production dependencies, the libraries inside
 * libvips (the list sharp-libvips ships), and the WebAssembly decoders. libheif and libde265
 * are LGPL, so the notices also say how to run the service with another build of them.
 */
type Arch = 'x64' | 'arm64'

interface LockEntry {
  readonly version?: string
  readonly license?: string
  readonly dependencies?: Record<string, string>
  readonly optionalDependencies?: Record<string, string>
}

const LICENCE_FILE = /^(licen[cs]e|copying|notice)/i

function licenceTexts(dir: string): string[] {
  const texts: string[] = []
  for (const sub of ['', 'libheif-wasm']) {
    const folder = join(dir, sub)
    if (!existsSync(folder)) continue
    for (const file of readdirSync(folder)
      .filter((f) => LICENCE_FILE.test(f))
      .sort())
      texts.push(readFileSync(join(folder, file), 'utf8').trim())
  }
  return texts
}

/** Runtime packages: the dependencies of package.json, closed over the lockfile, for one architecture. */
function runtimePackages(root: string, arch: Arch): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const lock: Record<string, LockEntry> = JSON.parse(
    readFileSync(join(root, 'package-lock.json'), 'utf8'),
  ).packages
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name) || !lock[`node_modules/${name}`]) return
    if (/^@img\/sharp-/.test(name) && !name.endsWith(`linux-${arch}`)) return
    if (!existsSync(join(root, 'node_modules', name))) return
    seen.add(name)
    const entry = lock[`node_modules/${name}`]!
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) visit(dep)
  }
  for (const name of Object.keys(pkg.dependencies)) visit(name)
  visit(`@oven/bun-linux-${arch === 'x64' ? 'x64' : 'aarch64'}`)
  return [...seen].sort()
}

function section(title: string, body: string): string {
  return `${'='.repeat(78)}\n${title}\n${'='.repeat(78)}\n\n${body.trim()}\n`
}

const RELINKING = `The HEIF decoder is libheif with libde265 (both LGPL-3.0), compiled to WebAssembly by the
libheif-js package and carried inside this executable as a separate module. To use your own
build (for example one you changed), build libheif.wasm from the same libheif version with
libheif-js's build script, and start the service with IMGAPI_HEIF_WASM=/path/to/libheif.wasm
(or --heif-wasm): that module is loaded instead of the embedded one. The embedded one's
source is that of the libheif-js version listed below.`

export function thirdPartyNotices(root: string, arch: Arch): string {
  const parts = [
    section('imgapi third-party notices', `This executable carries the software below.\n\n${RELINKING}`),
  ]
  for (const name of runtimePackages(root, arch)) {
    const dir = join(root, 'node_modules', name)
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const texts = licenceTexts(dir)
    const fromReadme =
      name.startsWith('@img/sharp-libvips-') &&
      readFileSync(join(dir, 'README.md'), 'utf8').split('## Licensing')[1]
    const body = [
      `License: ${meta.license ?? 'see below'}`,
      ...(fromReadme ? [`Libraries inside libvips:\n${fromReadme.trim()}`] : []),
      ...(texts.length
        ? texts
        : ['(the package ships no licence file; its package.json names the licence above)']),
    ].join('\n\n')
    parts.push(section(`${name} ${meta.version}`, body))
  }
  return parts.join('\n')
}
