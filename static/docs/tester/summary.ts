import type { Envelope } from './answer.ts'

/** What the server chose for an image: each figure, when the answer gives it. */
export interface ResultFacts {
  readonly quality?: number
  readonly similarity?: { readonly metric: string; readonly score: number }
  readonly encodes?: number
}

/** The encodes a job tried, from Server-Timing's `encodes;desc="7"`. */
function encodesFrom(serverTiming: string | null): number | undefined {
  const match = /(?:^|,)\s*encodes;desc="?(\d+)"?/.exec(serverTiming ?? '')
  return match ? Number(match[1]) : undefined
}

/** `ssim=0.9931` (X-Similarity) or the envelope's { metric, score }. */
function similarityFrom(headers: Headers, json: Envelope | undefined): ResultFacts['similarity'] {
  const fromJson = json?.similarity as ResultFacts['similarity']
  if (fromJson) return fromJson
  const match = /^(\w+)=([\d.]+)$/.exec(headers.get('x-similarity') ?? '')
  return match ? { metric: match[1]!, score: Number(match[2]) } : undefined
}

export function resultFacts(headers: Headers, json: Envelope | undefined): ResultFacts {
  const quality = (json?.quality as number | undefined) ?? Number(headers.get('x-quality') ?? NaN)
  return {
    quality: Number.isFinite(quality) ? quality : undefined,
    similarity: similarityFrom(headers, json),
    encodes: (json?.encodes as number | undefined) ?? encodesFrom(headers.get('server-timing')),
  }
}
