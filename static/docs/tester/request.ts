import type { ENDPOINTS } from './endpoints.ts'

type Endpoint = (typeof ENDPOINTS)[number]

/** Exactly what the tester sends: the same description drives fetch and the curl command. */
export interface SentRequest {
  readonly method: string
  readonly url: string
  readonly headers: readonly [string, string][]
  readonly fields: readonly [string, string][]
  readonly file?: File
  /** The watermark, sent as the file field `overlay`. */
  readonly overlay?: File
  /** Sent as Authorization: Bearer; kept apart so the curl command can name it without showing it. */
  readonly apiKey?: string
}

export interface Exchange {
  readonly request: SentRequest
  readonly response: Response
  readonly body: Blob
  readonly ms: number
}

/** What the form holds when it is sent. */
export interface TesterChoice {
  readonly endpoint: Endpoint
  readonly file?: File
  readonly overlay?: File
  /** Options with a value, in the order the form lists them; fields that do not apply left out. */
  readonly options: readonly [string, string][]
  readonly json: boolean
  readonly apiKey?: string
}

/**
 * The reader's language travels with the request, so error titles come back in it. The key goes
 * with every endpoint: a server may require it for GET /api/formats too, and it names the client
 * whose limits apply.
 */
export function describeRequest(choice: TesterChoice, language: string): SentRequest {
  const { endpoint, apiKey } = choice
  const url = new URL(endpoint.path, location.origin).toString()
  const languageHeader: [string, string] = ['Accept-Language', language]
  if (endpoint.id !== 'compress')
    return { method: endpoint.method, url, headers: [languageHeader], fields: [], apiKey }
  return {
    method: 'POST',
    url,
    headers: choice.json ? [['Accept', 'application/json'], languageHeader] : [languageHeader],
    fields: choice.options,
    file: choice.file,
    overlay: choice.overlay,
    apiKey,
  }
}
export async function send(request: SentRequest): Promise<Exchange> {
  let body: FormData | undefined
  if (request.method === 'POST') {
    body = new FormData()
    if (request.file) body.append('file', request.file, request.file.name)
    if (request.overlay) body.append('overlay', request.overlay, request.overlay.name)
    for (const [name, value] of request.fields) body.append(name, value)
  }
  const started = performance.now()
  const headers = [...request.headers]
  if (request.apiKey) headers.push(['Authorization', `Bearer ${request.apiKey}`])
  const response = await fetch(request.url, { method: request.method, headers, body })
  const blob = await response.blob()
  return { request, response, body: blob, ms: performance.now() - started }
}
