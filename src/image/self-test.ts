import { listFormats } from './formats.ts'
import { sharp } from './sharp.ts'
import type { FormatEnum } from 'sharp'

export interface CodecCheck {
  readonly ok: boolean
  readonly checkedAt: string
  readonly formats: Readonly<Record<string, boolean>>
}

const SIZE = 8

/** Encodes a tiny image in every writable format and decodes it back: proves the codecs work. */
async function checkCodecs(): Promise<CodecCheck> {
  const source = sharp({
    create: { width: SIZE, height: SIZE, channels: 4, background: { r: 200, g: 80, b: 20, alpha: 0.5 } },
  })
  const formats: Record<string, boolean> = {}
  for (const format of listFormats().filter((f) => f.output)) {
    try {
      const encoded = await source
        .clone()
        .toFormat(format.id as keyof FormatEnum)
        .toBuffer()
      const decoded = await sharp(encoded).metadata()
      formats[format.id] = decoded.width === SIZE && decoded.height === SIZE
    } catch {
      formats[format.id] = false
    }
  }
  const ok = Object.keys(formats).length > 0 && Object.values(formats).every(Boolean)
  return { ok, checkedAt: new Date().toISOString(), formats }
}

/** Caches the codec check for `ttlMs` so frequent health probes stay cheap. */
export function createCodecCheck(ttlMs = 5000, check: () => Promise<CodecCheck> = checkCodecs) {
  let last: { at: number; result: Promise<CodecCheck> } | undefined
  return (): Promise<CodecCheck> => {
    const now = performance.now()
    if (!last || now - last.at > ttlMs) last = { at: now, result: check() }
    return last.result
  }
}
