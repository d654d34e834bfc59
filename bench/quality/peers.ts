/*
 * The command-line tools imgapi is compared with, each run along a ladder of settings on the
 * prepared input. Every tool gets the settings a careful user would pass: metadata stripped,
 * progressive JPEG (smaller at the same quality), the encoder's default speed and a slower one.
 */
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Codec } from '../common/corpus.ts'
import type { PreparedImage } from './prepare.ts'
import { runTool } from './tools.ts'

export interface Peer {
  readonly name: string
  readonly format: Codec
  readonly full: readonly number[]
  readonly quick: readonly number[]
  readonly setting: (value: number) => string
  readonly command: (image: PreparedImage, value: number, out: string) => string[]
  /** The tool writes the image to stdout rather than to a file. */
  readonly toStdout?: boolean
}

export interface PeerOutput {
  readonly peer: string
  readonly format: Codec
  readonly setting: string
  readonly path: string
  readonly bytes: number
  readonly wallMs: number
  readonly cpuMs: number
}

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step)

const cwebp = (method?: number): Peer => ({
  name: method === undefined ? 'cwebp' : `cwebp -m ${method}`,
  format: 'webp',
  // Down to 10: a tight maxBytes lands far below the usual settings. The slower method costs
  // ~2.5x: a sparser ladder, interpolated just the same.
  full: method === undefined ? [10, 20, 30, ...range(40, 100, 5)] : [...range(10, 90, 10), 95, 100],
  quick: [50, 75, 95],
  setting: (q) => `-q ${q}`,
  command: (image, q, out) => {
    const slower = method === undefined ? [] : ['-m', String(method)]
    return ['cwebp', '-quiet', '-q', String(q), ...slower, '-metadata', 'none', image.png, '-o', out]
  },
})

/** avifenc 0.11 (Debian 12) has no -q: the ladder sets the quantizer (0-63, lower is better). */
const avifenc = (speed: number, full: readonly number[]): Peer => ({
  name: `avifenc -s ${speed}`,
  format: 'avif',
  full,
  quick: [10, 24, 38],
  setting: (q) => `--min ${q} --max ${q}`,
  command: (image, q, out) => [
    'avifenc',
    '-s',
    String(speed),
    '--min',
    `${q}`,
    '--max',
    `${q}`,
    image.png,
    out,
  ],
})

export const PEERS: readonly Peer[] = [
  {
    name: 'jpegoptim',
    format: 'jpeg',
    full: [30, 40, ...range(50, 95, 5)],
    quick: [60, 80, 95],
    setting: (q) => `-m ${q}`,
    // jpegoptim only recompresses JPEG: its input is the q95 4:4:4 JPEG of the prepared pixels,
    // so its ladder ends at 95 (above, it would only optimise that file losslessly).
    command: (image, q) => [
      'jpegoptim',
      '--quiet',
      '--force',
      '--strip-all',
      '--all-progressive',
      `-m${q}`,
      '--stdout',
      image.jpeg,
    ],
    toStdout: true,
  },
  {
    name: 'vips',
    format: 'jpeg',
    full: [30, 40, ...range(50, 100, 5)],
    quick: [60, 80, 95],
    setting: (q) => `Q=${q}`,
    command: (image, q, out) => ['vips', 'copy', image.png, `${out}[Q=${q},strip,optimize_coding,interlace]`],
  },
  cwebp(),
  cwebp(6),
  avifenc(6, [...range(4, 40, 4), 46, 52, 58]),
  // Speed 4 costs ~6x speed 6 (~5 CPU s per 2 MP rung): a sparser ladder, interpolated just the same.
  avifenc(4, [8, 18, 30, 46]),
  {
    name: 'pngquant',
    format: 'png',
    full: range(10, 100, 10),
    quick: [50, 80, 100],
    setting: (q) => `--quality 0-${q}`,
    command: (image, q, out) => [
      'pngquant',
      '--force',
      '--strip',
      '--quality',
      `0-${q}`,
      '--output',
      out,
      image.png,
    ],
  },
  {
    name: 'optipng',
    format: 'png',
    // Lossless: one rung, at its default level (-o2).
    full: [2],
    quick: [2],
    setting: (level) => `-o${level} (lossless)`,
    command: (image, level, out) => [
      'optipng',
      '-quiet',
      '-strip',
      'all',
      `-o${level}`,
      '-out',
      out,
      image.png,
    ],
  },
]

const EXTENSIONS: Readonly<Record<Codec, string>> = { jpeg: 'jpg', webp: 'webp', avif: 'avif', png: 'png' }

/** The peer's whole ladder on one image, one rung after another. */
export async function runLadder(
  peer: Peer,
  image: PreparedImage,
  dir: string,
  quick: boolean,
): Promise<PeerOutput[]> {
  const outputs: PeerOutput[] = []
  const base = image.png
    .split('/')
    .at(-1)!
    .replace(/\.png$/, '')
  for (const value of quick ? peer.quick : peer.full) {
    const tag = peer.name.replace(/[^a-z0-9]+/gi, '')
    const path = join(dir, `${base}.${tag}-${value}.${EXTENSIONS[peer.format]}`)
    const run = await runTool(peer.command(image, value, path))
    if (peer.toStdout) writeFileSync(path, run.stdout)
    const { wallMs, cpuMs } = run
    outputs.push({
      peer: peer.name,
      format: peer.format,
      setting: peer.setting(value),
      path,
      bytes: statSync(path).size,
      wallMs,
      cpuMs,
    })
  }
  return outputs
}
