import type { TFunction } from 'i18next'
import { numberFormats, type NumberFormats } from '../../../src/docs/numbers.ts'
import { comparison, type ImageFacts } from './comparison.ts'
import { filenameFrom } from './content-disposition.ts'
import { curlCommand, KEY_VARIABLE } from './curl.ts'
import { el } from './dom.ts'
import { problemNotice, type Problem } from './problem.ts'
import type { Exchange } from './request.ts'
import { resultSummary } from './summary.ts'

interface Rendered {
  readonly nodes: HTMLElement[]
  /** The image answer, when there is one, for the curl command's -o. */
  readonly filename?: string
}

const isJson = (type: string) => /^application\/(problem\+)?json/.test(type)

function headersTable(response: Response, t: TFunction): HTMLElement {
  const rows = [...response.headers].map(([name, value]) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row', translate: 'no' }, name),
      el('td', { dir: 'ltr', translate: 'no' }, value),
    ),
  )
  return el(
    'div',
    { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('site.tester.headers') },
    el('table', { class: 'headers' }, el('tbody', {}, ...rows)),
  )
}

/** A JSON body shown pretty, with a long data: URL shortened: the picture is shown instead. */
function prettyJson(value: unknown): string {
  return JSON.stringify(
    value,
    (key, v) =>
      key === 'data' && typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}… (${v.length})` : v,
    2,
  )
}

/**
 * The image inside a JSON envelope's data: URL, decoded here: fetching a data: URL counts as a
 * connection, which the page's Content-Security-Policy (connect-src 'self') rightly refuses.
 */
function blobFromDataUrl(url: string): Blob {
  const comma = url.indexOf(',')
  const type = /^data:([^;,]+)/.exec(url)?.[1] ?? 'application/octet-stream'
  const bytes = Uint8Array.from(atob(url.slice(comma + 1)), (c) => c.charCodeAt(0))
  return new Blob([bytes], { type })
}

async function imageAnswer(
  exchange: Exchange,
  t: TFunction,
  numbers: NumberFormats,
  json?: Record<string, unknown>,
): Promise<Rendered> {
  const { response, request } = exchange
  const blob = json ? blobFromDataUrl(String(json.data)) : exchange.body
  const filename =
    (json?.filename as string | undefined) ??
    filenameFrom(response.headers.get('content-disposition')) ??
    'image'
  const after: ImageFacts = {
    blob,
    format: String(json?.outputFormat ?? response.headers.get('x-output-format') ?? ''),
    width: Number(json?.width ?? response.headers.get('x-image-width')),
    height: Number(json?.height ?? response.headers.get('x-image-height')),
  }
  const before: ImageFacts = {
    blob: request.file!,
    format: String(json?.originalFormat ?? response.headers.get('x-original-format') ?? ''),
  }
  const download = el(
    'a',
    { class: 'button', href: URL.createObjectURL(blob), download: filename },
    t('site.tester.download', { name: filename }),
  )
  return { nodes: [comparison(before, after, t, numbers), el('p', {}, download)], filename }
}

export async function renderExchange(
  exchange: Exchange,
  t: TFunction,
  language: string,
  referencePath: string,
): Promise<HTMLElement[]> {
  const numbers = numberFormats(language)
  const { response } = exchange
  const type = response.headers.get('content-type') ?? ''
  const status = el(
    'p',
    { class: `status-line status-${String(response.status)[0]}xx` },
    t('site.tester.statusLine', {
      status: response.status,
      statusText: response.statusText,
      // Latin digits, as the status code beside it: one line, one set of digits.
      ms: numberFormats(language, 'latin').milliseconds(exchange.ms),
    }),
  )
  const json = isJson(type) ? (JSON.parse(await exchange.body.text()) as Record<string, unknown>) : undefined
  const parts: HTMLElement[] = [status]
  let filename: string | undefined
  if (json && type.startsWith('application/problem+json'))
    parts.push(problemNotice(json as Problem, referencePath, t))
  if (response.ok && exchange.request.file && (type.startsWith('image/') || typeof json?.data === 'string')) {
    const image = await imageAnswer(exchange, t, numbers, json)
    const summary = resultSummary(response, json, t, language)
    parts.push(...(summary ? [summary] : []), ...image.nodes)
    filename = json ? undefined : image.filename
  }
  parts.push(el('h3', {}, t('site.tester.headers')), headersTable(response, t))
  if (json)
    parts.push(
      el('h3', {}, t('site.tester.body')),
      el(
        'pre',
        { dir: 'ltr', translate: 'no', class: 'json', tabindex: '0' },
        el('code', {}, prettyJson(json)),
      ),
    )
  const curl = el(
    'div',
    { class: 'code-block', dir: 'ltr' },
    el('button', { type: 'button', class: 'copy', 'data-copy': '' }, t('site.common.copy')),
    el(
      'pre',
      { dir: 'ltr', translate: 'no', tabindex: '0', class: 'wrap' },
      el('code', { class: 'language-bash' }, curlCommand(exchange.request, filename)),
    ),
  )
  parts.push(el('h3', {}, t('site.tester.curl')), curl)
  if (exchange.request.apiKey)
    parts.push(
      el(
        'p',
        { class: 'hint' },
        t('site.tester.keyInCurl', { variable: KEY_VARIABLE }),
        ' ',
        el('code', { translate: 'no' }, `export ${KEY_VARIABLE}='…'`),
      ),
    )
  return parts
}
