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

/**
 * The output formats an Accept header lists by their image types (q > 0), for format=auto;
 * undefined when it names no image type of its own (curl's `*\/*`, `image/*`, or only
 * application/json for the JSON envelope): then every web format is a candidate.
 */
export function acceptedImageFormats(accept: string | null): Set<OutputFormat> | undefined {
  if (!accept) return undefined
  const formats = new Set<OutputFormat>()
  for (const id of OUTPUT_FORMATS) {
    const mime = FORMAT_TABLE[id].mime
    if (accept.toLowerCase().includes(mime) && acceptQuality(accept, mime) > 0) formats.add(id)
  }
  return formats.size > 0 ? formats : undefined
}
