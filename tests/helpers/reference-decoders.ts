import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'

/**
 * Debian's command-line decoders (djxl from libjxl-tools, heif-convert from libheif-examples)
 * as references for the WebAssembly ones. Undefined when the tool is not installed, so a
 * fresh clone without them still runs the rest of a test.
 */
export function referenceDecode(tool: 'djxl' | 'heif-convert', input: Uint8Array): Uint8Array | undefined {
  if (!Bun.which(tool)) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'imgapi-reference-'))
  try {
    const source = join(dir, tool === 'djxl' ? 'in.jxl' : 'in.heic')
    writeFileSync(source, input)
    const result = Bun.spawnSync([tool, source, join(dir, 'out.png')], { stdout: 'ignore', stderr: 'pipe' })
    if (result.exitCode !== 0) throw new Error(`${tool} failed: ${result.stderr.toString()}`)
    // heif-convert numbers its outputs when a file holds several images; the first is the primary.
    const written = readdirSync(dir)
      .filter((f) => f.startsWith('out'))
      .sort()[0]!
    return new Uint8Array(readFileSync(join(dir, written)))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Mean absolute difference per 8-bit sample, both images converted to sRGB at the first one's size. */
export async function meanDifference(a: Uint8Array, b: Uint8Array): Promise<number> {
  const first = await sharp(a).toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const { width, height } = first.info
  const second = await sharp(b)
    .resize(width, height, { fit: 'fill' })
    .toColourspace('srgb')
    .removeAlpha()
    .raw()
    .toBuffer()
  let sum = 0
  for (let i = 0; i < first.data.length; i++) sum += Math.abs(first.data[i]! - second[i]!)
  return sum / first.data.length
}
