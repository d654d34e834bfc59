import { isIPv6 } from 'node:net'
import { AppError } from '../errors/app-error.ts'
import { chunksWithin, StreamEnded } from '../streams/chunks-within.ts'
import { VERSION } from '../version.ts'
import { notAllowed, parseSourceUrl, shownUrl, type SourceUrl } from './source-url.ts'
import { judge, type AllowList, type UrlSourcesMode } from './url-policy.ts'

/*
 * Fetching a URL source through the guard, hop by hop. Each hop resolves its host once,
 * judges every address it gave, and connects to the address it judged (the URL is rewritten to
 * it; Host and the TLS server name keep the name), so no second lookup can bring another
 * address (DNS rebinding). `proxy: false`: Bun's fetch would otherwise send even these
 * requests through HTTP_PROXY, around the guard. Redirects are followed by hand, each Location
 * a new URL judged again. No cookies, no credentials, a User-Agent that says what it is.
 */

export type Resolve = (host: string) => Promise<string[]>

export interface SourceLimits {
  readonly mode: UrlSourcesMode
  readonly allow: AllowList
  /** The upload limit: bytes beyond it stop the read, whatever Content-Length said. */
  readonly maxBytes: number
  /** The origin must start answering within this, connection included. */
  readonly firstByteMs: number
  /** Monotonic time (performance.now()) by which the whole body must have arrived. */
  readonly deadline: number
  readonly maxRedirects: number
}

export interface SourceHooks {
  readonly resolve: Resolve
  /** Told the origin's declared length before the body is read, to hold no more of the budget than it needs. */
  readonly onLength?: (bytes: number) => void
}

export interface Fetched {
  readonly bytes: Uint8Array
  /** The URL the bytes came from, after redirects, as it may be shown. */
  readonly finalUrl: string
  readonly redirects: number
}

const USER_AGENT = `imgapi/${VERSION} (image URL source)`
const REDIRECTS = new Set([301, 302, 303, 307, 308])

export function sourceFailed(shown: string, detail: string): AppError {
  return new AppError('SOURCE_FAILED', `expected the origin to send the image at ${shown}, ${detail}`)
}

export function sourceTimedOut(shown: string, what: string): AppError {
  return new AppError('SOURCE_TIMEOUT', `expected ${shown} to ${what} in time, it did not`)
}

function tooLarge(shown: string, maxBytes: number, received: string): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `expected an image of at most ${maxBytes} bytes at ${shown}, ${received}`,
  )
}

/** The addresses to connect to for a hop, or the refusal; judged before any connection is made. */
async function checkedAddresses(
  target: SourceUrl,
  limits: SourceLimits,
  resolve: Resolve,
): Promise<string[]> {
  let addresses: string[]
  try {
    addresses =
      isIPv6(target.host) || /^\d{1,3}(\.\d{1,3}){3}$/.test(target.host)
        ? [target.host]
        : await resolve(target.host)
  } catch {
    throw sourceFailed(target.shown, `its host name ${JSON.stringify(target.host)} does not resolve`)
  }
  const verdict = judge(limits.mode, limits.allow, target.host, target.port, addresses)
  if (!verdict.allowed) throw notAllowed(target.shown, verdict.rule!)
  return addresses
}

/** One request to the judged address; the answer's headers, or why there was none. */
async function request(target: SourceUrl, address: string, limits: SourceLimits): Promise<Response> {
  const literal = isIPv6(address) ? `[${address}]` : address
  const direct = `${target.url.protocol}//${literal}:${target.port}${target.url.pathname}${target.url.search}`
  const controller = new AbortController()
  const waited = Math.max(0, Math.min(limits.firstByteMs, limits.deadline - performance.now()))
  const timer = setTimeout(() => controller.abort(), waited)
  try {
    return await fetch(direct, {
      method: 'GET',
      headers: { host: target.url.host, 'user-agent': USER_AGENT, accept: 'image/*' },
      redirect: 'manual',
      signal: controller.signal,
      // Never through an outgoing proxy from the environment: it would be the one to connect.
      proxy: false,
      // The certificate is checked against the name, not the address connected to.
      ...(target.url.protocol === 'https:' ? { tls: { serverName: target.host } } : {}),
    } as RequestInit)
  } catch (error) {
    if (controller.signal.aborted) throw sourceTimedOut(target.shown, 'start answering')
    const code = (error as { code?: string }).code
    throw sourceFailed(target.shown, `the connection failed${code ? ` (${code})` : ''}`)
  } finally {
    clearTimeout(timer)
  }
}

/** The body, read under the byte limit and the deadline, whatever Content-Length said. */
export async function readBody(
  response: Response,
  target: Pick<SourceUrl, 'shown'>,
  limits: Pick<SourceLimits, 'maxBytes' | 'deadline'>,
  hooks: Pick<SourceHooks, 'onLength'>,
) {
  const declared = Number(response.headers.get('content-length') ?? NaN)
  if (Number.isSafeInteger(declared)) {
    if (declared > limits.maxBytes) {
      void response.body?.cancel().catch(() => {})
      throw tooLarge(target.shown, limits.maxBytes, `it declares ${declared} bytes`)
    }
    hooks.onLength?.(declared)
  }
  if (!response.body) return new Uint8Array(0)
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for await (const chunk of chunksWithin(response.body, limits.deadline)) {
      total += chunk.byteLength
      if (total > limits.maxBytes)
        throw tooLarge(target.shown, limits.maxBytes, `it sent more than ${limits.maxBytes} bytes`)
      chunks.push(chunk)
    }
  } catch (error) {
    if (!(error instanceof StreamEnded)) throw error
    if (error.why === 'expired') throw sourceTimedOut(target.shown, 'send its whole image')
    throw sourceFailed(target.shown, `the connection broke after ${error.received} bytes`)
  }
  return Buffer.concat(chunks, total)
}

/** The image at `text`, fetched through the guard; what went wrong as one of the catalogue's errors. */
export async function fetchSource(text: string, limits: SourceLimits, hooks: SourceHooks): Promise<Fetched> {
  let target = parseSourceUrl(text)
  for (let redirects = 0; ; redirects++) {
    const addresses = await checkedAddresses(target, limits, hooks.resolve)
    const response = await request(target, addresses[0]!, limits)
    if (REDIRECTS.has(response.status)) {
      void response.body?.cancel().catch(() => {})
      const location = response.headers.get('location')
      if (!location) throw sourceFailed(target.shown, `it answered ${response.status} without a Location`)
      if (redirects >= limits.maxRedirects)
        throw sourceFailed(target.shown, `it redirected more than ${limits.maxRedirects} times`)
      let next: URL
      try {
        next = new URL(location, target.url)
      } catch {
        throw sourceFailed(target.shown, 'it redirected to a Location that is not a URL')
      }
      // A new URL, judged again from the start: a public page may send the fetch to the
      // metadata service.
      target = parseSourceUrl(next.href)
      continue
    }
    if (response.status < 200 || response.status > 299) {
      void response.body?.cancel().catch(() => {})
      throw new AppError(
        'SOURCE_FAILED',
        `expected the origin to send the image at ${target.shown}, it answered ${response.status}`,
        { originStatus: response.status },
      )
    }
    const bytes = await readBody(response, target, limits, hooks)
    return { bytes, finalUrl: shownUrl(target.url), redirects }
  }
}
