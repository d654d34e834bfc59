import { resolveFormatName, type OutputFormat } from '../formats/format-table.ts'
import { canWrite, formatInfo } from './formats.ts'
import type { ImageProbe } from './probe.ts'

/** What the caller said it can show: an explicit list (formats=…) or the Accept header's image types. */
export interface FormatChoice {
  /** `formats`, in the caller's order. */
  readonly listed?: readonly string[]
  /** From Accept; undefined when it names no image type. */
  readonly accepted?: ReadonlySet<OutputFormat>
}

/** `formats` as the list format=auto takes, in the caller's order. */
export function listedFormats(formats: string | undefined): string[] | undefined {
  return formats?.split(',').map((name) => name.trim())
}

/**
 * format=auto's candidates, most preferred first. An explicit list is taken as given. From
 * Accept: AVIF, WebP, then JPEG or PNG as transparency needs, keeping those it lists (JPEG or
 * PNG always: every client shows them). An animation keeps its motion: WebP, then GIF.
 */
export function autoCandidates(choice: FormatChoice, probe: ImageProbe): OutputFormat[] {
  const writable = (id: OutputFormat) => canWrite(id)
  if (choice.listed?.length) {
    const ids = choice.listed.map((name) => resolveFormatName(name)!).filter(writable)
    return [...new Set(ids)]
  }
  const animated = probe.frames > 1
  const fallback: OutputFormat = animated ? 'gif' : probe.hasAlpha ? 'png' : 'jpeg'
  const order: OutputFormat[] = animated ? ['webp'] : ['avif', 'webp']
  const shown = order.filter((id) => writable(id) && (!choice.accepted || choice.accepted.has(id)))
  return animated ? [...shown.filter((id) => formatInfo(id).animated), fallback] : [...shown, fallback]
}
