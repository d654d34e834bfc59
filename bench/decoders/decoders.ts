/**
 * The WebAssembly decoders against libvips: milliseconds per megapixel to decode a HEIC (libheif)
 * and a JPEG XL (jxl-oxide) into what sharp reads, next to libvips decoding a JPEG of the same
 * pixels, and the WebAssembly memory each leaves behind. Images are made here (heif-enc, cjxl)
 * from a corpus photo, so the three inputs hold the same picture. Called by bench/run.ts;
 * alone: bun bench/decoders/decoders.ts [--megapixels 12]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { decodeForSharp, wasmMemoryBytes, type DecodedFormat } from '../../src/image/decoders/index.ts'
import { CORPUS } from '../../tests/helpers/paths.ts'
import { median } from '../common/figures.ts'

const PHOTO = join(CORPUS, 'photo-bird-nuthatch-20mp.jpg')
const ROUNDS = 3

function make(tool: string[], dir: string, name: string): Uint8Array {
  const out = join(dir, name)
  const result = Bun.spawnSync([...tool, out], { stdout: 'ignore', stderr: 'pipe' })
  if (result.exitCode !== 0) throw new Error(`${tool[0]} failed: ${result.stderr}`)
  return new Uint8Array(readFileSync(out))
}

async function timeMs(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

export async function benchDecoders(megapixels: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-bench-decoders-'))
  try {
    const photo = (await Bun.file(PHOTO).exists()) ? PHOTO : undefined
    if (!photo) return `decoders: skipped, ${PHOTO} is absent`
    const meta = await sharp(photo).metadata()
    const scale = Math.sqrt((megapixels * 1e6) / (meta.width! * meta.height!))
    const width = Math.round(meta.width! * scale)
    const png = join(dir, 'source.png')
    await sharp(photo).resize(width).png({ compressionLevel: 1 }).toFile(png)
    const jpeg = await sharp(png).jpeg({ quality: 85 }).toBuffer()
    const inputs: Record<DecodedFormat, Uint8Array> = {
      heic: make(['heif-enc', '-q', '60', png, '-o'], dir, 'in.heic'),
      jxl: make(['cjxl', png, '-d', '1.5', '--quiet'], dir, 'in.jxl'),
    }
    const { width: w, height: h } = await sharp(png).metadata()
    const mp = (w! * h!) / 1e6
    const libvips = await timeMs(() => sharp(jpeg).raw().toBuffer())
    const lines = [
      `decoders: ${w}x${h} (${mp.toFixed(1)} MP), median of ${ROUNDS}, after one warm-up decode each`,
    ]
    lines.push(`  libvips JPEG       ${(libvips / mp).toFixed(0).padStart(6)} ms/MP  (1.0x)`)
    for (const format of ['heic', 'jxl'] as const) {
      await decodeForSharp(format, inputs[format])
      const before = wasmMemoryBytes()
      const ms = await timeMs(async () =>
        sharp(await decodeForSharp(format, inputs[format]))
          .raw()
          .toBuffer(),
      )
      const grown = (wasmMemoryBytes() - before) / 2 ** 20
      const name = format === 'heic' ? 'libheif (HEIC)' : 'jxl-oxide (JPEG XL)'
      lines.push(
        `  ${name.padEnd(18)} ${(ms / mp).toFixed(0).padStart(6)} ms/MP  (${(ms / libvips).toFixed(1)}x)  WebAssembly memory now ${(wasmMemoryBytes() / 2 ** 20).toFixed(0)} MiB (+${grown.toFixed(0)})`,
      )
    }
    return lines.join('\n')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { megapixels: { type: 'string', default: '12' } } })
  console.log(await benchDecoders(Number(values.megapixels)))
}
