import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import pkg from '../../package.json'
import { BUN_MAX_HEADER_BYTES } from '../settings.ts'
import { buildDocsAssets } from './docs-assets.ts'
import { ensureSharpPackages, libvipsPath, sharpPackages, type Arch } from './sharp-packages.ts'
import { thirdPartyNotices } from './third-party-notices.ts'

/**
 * `npm run build`: one self-contained executable per architecture in dist/, each carrying
 * the API, sharp's addon and libvips for its own architecture only, the docs assets and the
 * locales, and its THIRD-PARTY-NOTICES (also written next to it); plus dist/SHA256SUMS. Usage: bun src/build/executable.ts [x64] [arm64]
 */
const ROOT = resolve(import.meta.dir, '../..')
const sha256Of = (file: string) => new Bun.CryptoHasher('sha256').update(readFileSync(file)).digest('hex')

/** Replaces a placeholder module of src/ with one that imports `file` as an embedded file. */
function embedFile(module: string, file: string, exported: (path: string) => string): Bun.BunPlugin {
  const target = join(ROOT, module)
  return {
    name: `embed ${module}`,
    setup(build) {
      build.onLoad({ filter: new RegExp(`${basename(module).replace('.', '\\.')}$`) }, (args) => {
        if (args.path !== target) return undefined
        const contents = `import path from ${JSON.stringify(file)} with { type: 'file' }\n${exported('path')}`
        return { loader: 'ts', contents }
      })
    },
  }
}

const embedLibvips = (library: string) =>
  embedFile(
    'src/image/native/embedded-libvips.ts',
    library,
    (path) =>
      `export const EMBEDDED_LIBVIPS = { path: ${path}, sha256: ${JSON.stringify(sha256Of(library))} }`,
  )

/** dist/THIRD-PARTY-NOTICES-linux-<arch>, written from the packages' licence files, then embedded. */
function embedNotices(arch: Arch): Bun.BunPlugin {
  const file = join(ROOT, 'dist', `THIRD-PARTY-NOTICES-linux-${arch}`)
  writeFileSync(file, thirdPartyNotices(ROOT, arch))
  return embedFile('src/notices.ts', file, (path) => `export const EMBEDDED_NOTICES = ${path}`)
}

/** sharp's addon goes through loadEmbeddedAddon instead of Bun's own unpacking to /tmp. */
function embedSharpAddon(arch: Arch): Bun.BunPlugin {
  const addonDir = join(ROOT, 'node_modules', `@img/sharp-linux-${arch}`)
  return {
    name: 'embed-sharp-addon',
    setup(build) {
      build.onLoad({ filter: /sharp-linux-(x64|arm64)[\\/]index\.cjs$/ }, (args) => {
        if (args.path !== join(addonDir, 'index.cjs')) return undefined
        const addon = join(
          addonDir,
          'lib',
          readdirSync(join(addonDir, 'lib')).find((f) => f.endsWith('.node'))!,
        )
        const loader = join(ROOT, 'src/image/native/addon-loader.ts')
        return {
          loader: 'ts',
          contents: [
            `import addonPath from ${JSON.stringify(addon)} with { type: 'file' }`,
            `import { loadEmbeddedAddon } from ${JSON.stringify(loader)}`,
            'module.exports = loadEmbeddedAddon(addonPath)',
          ].join('\n'),
        }
      })
    },
  }
}

async function buildFor(arch: Arch): Promise<string> {
  const other: Arch = arch === 'x64' ? 'arm64' : 'x64'
  const outfile = join(ROOT, 'dist', `imgapi-${pkg.version}-linux-${arch}`)
  const result = await Bun.build({
    entrypoints: [join(ROOT, 'src/index.ts')],
    compile: {
      target: `bun-linux-${arch}`,
      outfile,
      execArgv: [`--max-http-header-size=${BUN_MAX_HEADER_BYTES}`],
      // A server started in some directory must not pick up that directory's settings.
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadPackageJson: false,
      autoloadTsconfig: false,
    } as Bun.CompileBuildOptions,
    // Only this architecture's native parts: sharp names every platform's addon statically.
    external: sharpPackages(other).flatMap((name) => [name, `${name}/*`]),
    minify: true,
    bytecode: true,
    sourcemap: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: [embedLibvips(libvipsPath(ROOT, arch)), embedSharpAddon(arch), embedNotices(arch)],
  })
  if (!result.success) throw new AggregateError(result.logs, `build for ${arch} failed`)
  await assertOnlyOwnLibvips(outfile, arch, other)
  return outfile
}

/** Proof, not hope: the output contains this architecture's libvips and not the other's. */
async function assertOnlyOwnLibvips(outfile: string, arch: Arch, other: Arch): Promise<void> {
  const binary = Buffer.from(await Bun.file(outfile).arrayBuffer())
  const sample = async (a: Arch) => {
    const library = await Bun.file(libvipsPath(ROOT, a)).bytes()
    return Buffer.from(library.subarray(library.length >> 1, (library.length >> 1) + 4096))
  }
  if (!binary.includes(await sample(arch))) throw new Error(`${outfile} does not contain the ${arch} libvips`)
  if (binary.includes(await sample(other))) {
    throw new Error(`${outfile} also contains the ${other} libvips`)
  }
}

const requested = process.argv.slice(2).filter((a): a is Arch => a === 'x64' || a === 'arm64')
const arches: Arch[] = requested.length ? requested : ['x64', 'arm64']
// Both architectures' packages, even for a single build: the check that a binary carries
// only its own libvips needs the other one to search for.
for (const arch of ['x64', 'arm64'] as const) ensureSharpPackages(ROOT, arch)
await buildDocsAssets()
mkdirSync(join(ROOT, 'dist'), { recursive: true })
const lines: string[] = []
for (const arch of arches) {
  const started = performance.now()
  const file = await buildFor(arch)
  const bytes = await Bun.file(file).bytes()
  lines.push(`${new Bun.CryptoHasher('sha256').update(bytes).digest('hex')}  ${basename(file)}`)
  const mib = (statSync(file).size / 2 ** 20).toFixed(1)
  console.log(`built ${file} (${mib} MiB) in ${Math.round(performance.now() - started)} ms`)
}
writeFileSync(join(ROOT, 'dist/SHA256SUMS'), lines.join('\n') + '\n')
console.log(`wrote ${join(ROOT, 'dist/SHA256SUMS')}`)
