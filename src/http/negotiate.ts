import { FORMAT_TABLE, OUTPUT_FORMATS, type OutputFormat } from '../formats/format-table.ts'

/** Quality value the Accept header gives `type` (exact, then `major/*`, then `*\/*`). */
function acceptQuality(accept: string, type: string): number {
  const [major] = type.split('/')
  let best = -1
  let specificity = -1
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const quality = q ? Number(q.slice(2)) : 1
    const rank = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1
    if (rank > specificity) {
      specificity = rank
      best = Number.isFinite(quality) ? quality : 0
    }
  }
  return specificity === -1 ? 0 : best
}

/** JSON when the caller asks for it at least as much as for the image itself. */
export function wantsJson(accept: string | null, imageMime: string): boolean {
  if (!accept) return false
  const json = acceptQuality(accept, 'application/json')
  return (
    json > 0 && json >= acceptQuality(accept, imageMime) && accept.toLowerCase().includes('application/json')
  )
}

/** The quality Accept gives exactly this media type, when it names it; undefined when it does not. */
function namedQuality(accept: string, type: string): number | undefined {
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';')
    if (range.trim() !== type) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    const quality = q ? Number(q.slice(2)) : 1
    return Number.isFinite(quality) ? quality : 0
  }
  return undefined
}

/**
 * The output formats an Accept header allows, for format=auto: those it names by their image
 * types with q > 0; when it names none that way (curl's `*\/*`, `image/*`, only
 * application/json for the JSON envelope), every web format but those it refuses by name with
 * q=0; undefined when it neither names nor refuses any, and then every web format is a candidate.
 */
export function acceptedImageFormats(accept: string | null): Set<OutputFormat> | undefined {
  if (!accept) return undefined
  const named = new Set<OutputFormat>()
  const refused = new Set<OutputFormat>()
  for (const id of OUTPUT_FORMATS) {
    const quality = namedQuality(accept, FORMAT_TABLE[id].mime)
    if (quality === undefined) continue
    ;(quality > 0 ? named : refused).add(id)
  }
  if (named.size > 0) return named
  if (refused.size > 0) return new Set(OUTPUT_FORMATS.filter((id) => !refused.has(id)))
  return undefined
}
