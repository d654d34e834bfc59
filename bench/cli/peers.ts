/**
 * The command-line tools people would use instead of `imgapi compress` for a folder of photos
 * to WebP at width 1600: sharp-cli 6 and @squoosh/cli 0.7, both devDependencies, each run as its
 * README says under Node (both are Node programs), at quality 80 as the other two sides.
 *
 * - sharp-cli hands every input to sharp at once; sharp runs them on libuv's thread pool, which
 *   UV_THREADPOOL_SIZE sets to the same number of encodes at a time as the other sides.
 * - @squoosh/cli (libwebp in WebAssembly) runs a worker per CPU, with no setting for it. On
 *   Node 18 and later its Emscripten glue finds the global fetch and asks it for its .wasm by
 *   file path, which fails ("Failed to parse URL"); `--no-experimental-fetch` makes it read the
 *   file instead, as it did on Node 16. It runs under Bun neither. It has no "do not enlarge"
 *   option, so the corpus's photos narrower than 1600 px are enlarged on its side; and it does
 *   not apply EXIF orientation.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { ROOT } from '../../tests/helpers/paths.ts'

export interface PeerSide {
  readonly ms: number
  /** CPU time of the tool and every thread and worker it waited for. */
  readonly cpuMs: number
  readonly bytes: number
  readonly files: number
}

export interface Peer {
  readonly name: string
  /** Why it cannot run here, or undefined. */
  readonly missing: () => string | undefined
  readonly argv: (files: readonly string[], out: string) => string[]
  readonly env?: (jobs: number) => Record<string, string>
  /** The inputs it can take at all, where that is not every photo. */
  readonly accepts?: (file: string) => boolean
}

const SHARP_CLI = join(ROOT, 'node_modules/sharp-cli/bin/cli.js')
const SQUOOSH_CLI = join(ROOT, 'node_modules/@squoosh/cli/src/index.js')
const node = () => Bun.which('node')
const needs = (file: string) => () =>
  !node() ? 'node is not on PATH' : !existsSync(file) ? `${file} is not installed (npm install)` : undefined

export const PEERS: readonly Peer[] = [
  {
    name: 'sharp-cli 6',
    missing: needs(SHARP_CLI),
    argv: (files, out) => [
      node()!,
      SHARP_CLI,
      ...files.flatMap((file) => ['-i', file]),
      '-o',
      `${out}/`,
      '-f',
      'webp',
      '-q',
      '80',
      'resize',
      '1600',
      '--fit',
      'inside',
      '--withoutEnlargement',
    ],
    env: (jobs) => ({ UV_THREADPOOL_SIZE: String(jobs) }),
  },
  {
    name: '@squoosh/cli 0.7',
    missing: needs(SQUOOSH_CLI),
    argv: (files, out) => [
      node()!,
      '--no-experimental-fetch',
      SQUOOSH_CLI,
      '--resize',
      '{"width":1600}',
      '--webp',
      '{"quality":80}',
      '-d',
      out,
      ...files,
    ],
    // Its mozjpeg decoder stops at a CMYK JPEG ("Unsupported color conversion request") and
    // then writes nothing for any file, exit 0: it gets the other photos.
    accepts: (file) => !/cmyk/i.test(basename(file)),
  },
]

/** One run of a peer over `files` into the folder `out`, timed from spawn to exit. */
export async function peerRound(
  peer: Peer,
  files: readonly string[],
  out: string,
  jobs: number,
): Promise<PeerSide> {
  mkdirSync(out, { recursive: true })
  const started = performance.now()
  const proc = Bun.spawn(peer.argv(files, out), {
    stdout: 'ignore',
    stderr: 'pipe',
    env: { ...process.env, ...peer.env?.(jobs) },
  })
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited])
  const ms = performance.now() - started
  const usage = proc.resourceUsage()
  if (code !== 0) throw new Error(`${peer.name} exited ${code}: ${stderr.slice(0, 500)}`)
  const written = readdirSync(out).filter((name) => name.endsWith('.webp'))
  if (written.length !== files.length)
    throw new Error(`${peer.name} wrote ${written.length} WebP files for ${files.length} inputs`)
  return {
    ms,
    cpuMs: usage ? Number(usage.cpuTime.total) / 1000 : Number.NaN,
    bytes: written.reduce((sum, name) => sum + statSync(join(out, name)).size, 0),
    files: written.length,
  }
}
