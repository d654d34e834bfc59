import { decoderOf, decodes, type DecoderInfo } from './decoders/index.ts'
import { sharp } from './sharp.ts'
import {
  FORMAT_TABLE,
  OUTPUT_FORMATS,
  PACKED_FORMATS,
  type FormatId,
  type OutputFormat,
  type Tunables,
} from '../formats/format-table.ts'

export interface FormatInfo {
  readonly id: FormatId
  readonly mime: string
  readonly extensions: readonly string[]
  readonly aliases: readonly string[]
  readonly input: boolean
  readonly output: boolean
  readonly animated: boolean
  readonly alpha: boolean
  readonly lossless: boolean
  readonly metadata: boolean
  readonly tunables: Tunables
  /** For inputs libvips cannot read itself: the WebAssembly decoder that reads them. */
  readonly decoder?: DecoderInfo
}

type SharpFormat = { input: { buffer: boolean }; output: { buffer: boolean } }

function capability(sharpId: string): SharpFormat | undefined {
  return (sharp.format as unknown as Record<string, SharpFormat | undefined>)[sharpId]
}

/**
 * HEIC (HEVC) and JPEG XL are read by the WebAssembly decoders, whatever libvips was built
 * with; the rest by libvips, as sharp reports it.
 */
function readable(id: FormatId): boolean {
  if (decodes(id)) return true
  if ((PACKED_FORMATS as readonly string[]).includes(id)) return false
  return capability(FORMAT_TABLE[id].sharpId)?.input.buffer ?? false
}

function writable(id: FormatId): boolean {
  if (!(OUTPUT_FORMATS as readonly string[]).includes(id)) return false
  return capability(FORMAT_TABLE[id].sharpId)?.output.buffer ?? false
}

/**
 * The tunables of an output, as declared: every range the encoder has (AVIF effort 0-9 too,
 * since a job that runs too long is stopped by killing its worker process).
 */
export function tunablesFor(id: FormatId): Tunables {
  return formatInfo(id).tunables
}

/** The formats as GET /api/formats publishes them on this server. */
export function publishedFormats(): FormatInfo[] {
  return listFormats().map((f) => ({ ...f, tunables: tunablesFor(f.id) }))
}

let cached: readonly FormatInfo[] | undefined

/** The declared table merged with what this build of libvips can read and write. */
export function listFormats(): readonly FormatInfo[] {
  cached ??= (Object.keys(FORMAT_TABLE) as FormatId[]).map((id) => {
    const declared = FORMAT_TABLE[id]
    const output = writable(id)
    return Object.freeze({
      id,
      mime: declared.mime,
      extensions: declared.extensions,
      aliases: declared.aliases,
      input: readable(id),
      output,
      animated: output && declared.animated,
      alpha: declared.alpha,
      lossless: declared.lossless,
      metadata: declared.metadata,
      tunables: output ? declared.tunables : {},
      ...(decodes(id) ? { decoder: decoderOf(id) } : {}),
    })
  })
  return cached
}

export function formatInfo(id: FormatId): FormatInfo {
  return listFormats().find((f) => f.id === id)!
}

export function canRead(id: FormatId): boolean {
  return formatInfo(id).input
}

export function canWrite(id: FormatId): id is OutputFormat {
  return formatInfo(id).output
}

export function readableFormatIds(): FormatId[] {
  return listFormats()
    .filter((f) => f.input)
    .map((f) => f.id)
}
