import { AppError } from '../errors/app-error.ts'
import { clip, echo } from '../errors/echo.ts'
import { canonicalHost } from './url-policy.ts'

/** A URL fit to fetch: its parts as the guard reads them, and how it may be shown. */
export interface SourceUrl {
  readonly url: URL
  /** Lower case, punycode, no trailing dot, no brackets. */
  readonly host: string
  readonly port: number
  /** Scheme, host, port and path: never userinfo, query or fragment (a presigned URL's signature). */
  readonly shown: string
}

/** What a URL is shown as in answers and logs: without userinfo, query or fragment. */
export function shownUrl(url: URL): string {
  return clip(`${url.protocol}//${url.host}${url.pathname}`, 512)
}

export function notAllowed(shown: string, rule: string): AppError {
  return new AppError('URL_NOT_ALLOWED', `expected a URL this server may fetch, ${shown} is not: ${rule}`)
}

/**
 * Reads `text` as an absolute http or https URL. The WHATWG parser is the one the fetch will
 * use, so what it makes of decimal, octal and hex IPv4 hosts (`2130706433`, `0x7f.1`,
 * `127.1` are all 127.0.0.1), IDN and trailing dots is what the guard judges.
 */
export function parseSourceUrl(text: string): SourceUrl {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    throw new AppError(
      'INVALID_PARAMETER',
      `url: expected an absolute http or https URL, received ${echo(text)}`,
      {
        errors: [{ name: 'url', reason: `expected an absolute http or https URL, received ${echo(text)}` }],
      },
    )
  }
  const shown = shownUrl(url)
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw notAllowed(shown, `only http and https URLs are fetched, not ${clip(url.protocol, 20)}`)
  // A name before an @ is a classic disguise (http://trusted@127.0.0.1/), and a credential in
  // a URL would travel to the origin and into logs: refused whatever the host.
  if (url.username || url.password)
    throw notAllowed(shown, 'a URL with a user name or password is not fetched')
  const host = canonicalHost(url.hostname)
  if (!host) throw notAllowed(shown, 'it has no host')
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80
  return { url, host, port, shown }
}
