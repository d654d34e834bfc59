import type { TFunction } from 'i18next'
import { numberFormats } from '../../../src/docs/numbers.ts'
import { el } from './dom.ts'

type Envelope = Record<string, unknown> | undefined

/** The encodes a job tried, from Server-Timing's `encodes;desc="7"`. */
function encodesFrom(serverTiming: string | null): number | undefined {
  const match = /(?:^|,)\s*encodes;desc="?(\d+)"?/.exec(serverTiming ?? '')
  return match ? Number(match[1]) : undefined
}

/** `ssim=0.9931` (X-Similarity) or the envelope's { metric, score }. */
function similarityFrom(response: Response, json: Envelope): { metric: string; score: number } | undefined {
  const fromJson = json?.similarity as { metric: string; score: number } | undefined
  if (fromJson) return fromJson
  const match = /^(\w+)=([\d.]+)$/.exec(response.headers.get('x-similarity') ?? '')
  return match ? { metric: match[1]!, score: Number(match[2]) } : undefined
}

/**
 * What the server chose for this image, up front: the quality of the encode it returned, how
 * close that is to the original, and how many encodes it tried to get there. Figures in Latin
 * digits, as the headers and the values one types read.
 */
export function resultSummary(
  response: Response,
  json: Envelope,
  t: TFunction,
  language: string,
): HTMLElement | undefined {
  const numbers = numberFormats(language, 'latin')
  const quality = (json?.quality as number | undefined) ?? Number(response.headers.get('x-quality') ?? NaN)
  const similarity = similarityFrom(response, json)
  const encodes = (json?.encodes as number | undefined) ?? encodesFrom(response.headers.get('server-timing'))
  const items: [string, string][] = []
  if (Number.isFinite(quality)) items.push([t('site.tester.quality'), numbers.integer(quality)])
  if (similarity)
    items.push([
      t('site.tester.similarity'),
      `${similarity.metric.toUpperCase()} ${numbers.score(similarity.score)}`,
    ])
  if (encodes !== undefined) items.push([t('site.tester.encodes'), numbers.integer(encodes)])
  if (items.length === 0) return undefined
  return el(
    'dl',
    { class: 'result-summary' },
    ...items.map(([name, value]) => el('div', {}, el('dt', {}, name), el('dd', { dir: 'ltr' }, value))),
  )
}
