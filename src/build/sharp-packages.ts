import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

/**
 * npm installs only the host's sharp binaries. Cross-building needs the other architecture's
 * pair (sharp's addon and its libvips): fetched from the registry with `npm pack` at build
 * time, checked against the integrity the lockfile already records, then unpacked into
 * node_modules next to the host's.
 */
export type Arch = 'x64' | 'arm64'

export const sharpPackages = (arch: Arch) => [`@img/sharp-linux-${arch}`, `@img/sharp-libvips-linux-${arch}`]

interface LockEntry {
  version: string
  integrity: string
}

function lockEntry(root: string, name: string): LockEntry {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))
  const entry = lock.packages?.[`node_modules/${name}`]
  if (!entry?.version || !entry?.integrity) throw new Error(`${name} is not pinned in package-lock.json`)
  return entry
}

function run(command: string[], cwd: string): string {
  const result = Bun.spawnSync(command, { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${command.join(' ')} failed: ${result.stderr.toString()}`)
  return result.stdout.toString()
}

function fetchVerified(root: string, name: string, cache: string): string {
  const { version, integrity } = lockEntry(root, name)
  const tarball = join(cache, `${name.slice(1).replace('/', '-')}-${version}.tgz`)
  if (!existsSync(tarball)) run(['npm', 'pack', '--silent', `${name}@${version}`], cache)
  const [algorithm, expected] = integrity.split('-', 2) as [string, string]
  const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64')
  if (actual !== expected) {
    rmSync(tarball, { force: true })
    throw new Error(
      `${name}@${version}: tarball integrity ${algorithm}-${actual} does not match the lockfile`,
    )
  }
  return tarball
}

/** Makes sure both sharp packages for `arch` are in node_modules. */
export function ensureSharpPackages(root: string, arch: Arch): void {
  const cache = join(root, 'dist/.cache')
  for (const name of sharpPackages(arch)) {
    const dir = join(root, 'node_modules', name)
    if (existsSync(join(dir, 'package.json'))) continue
    mkdirSync(cache, { recursive: true })
    const tarball = fetchVerified(root, name, cache)
    mkdirSync(dir, { recursive: true })
    run(['tar', '-xzf', tarball, '-C', dir, '--strip-components=1'], root)
  }
}

/** The libvips shared library of `arch`, as its package exports it. */
export function libvipsPath(root: string, arch: Arch): string {
  const dir = join(root, 'node_modules', `@img/sharp-libvips-linux-${arch}`)
  const exported = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).exports['./binary']
  return join(dir, exported)
}
