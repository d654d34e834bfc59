import { chooseLanguage } from '../docs/language.ts'
import { chooseEncoding, CompressedCache, type Encoding } from '../http/compression.ts'
import { etagOf, notModified } from '../http/conditional.ts'
import { requestTarget } from '../http/request-target.ts'
import { addVary } from '../http/vary.ts'
import type { LanguageCode } from '../i18n.ts'

type Headers = Record<string, string | number>
type Handler = (context: { request: Request; set: { headers: Headers } }) => Response

/** Bodies that never change while the process runs: compressed once per encoding, their ETag hashed once. */
export function validatedBodies() {
  const compressed = new CompressedCache()
  const etags = new Map<string, string>()
  return (key: string, bytes: Uint8Array, encoding: Encoding | undefined) => {
    const body = compressed.get(key, bytes, encoding)
    const etagKey = `${encoding ?? 'identity'}:${key}`
    let etag = etags.get(etagKey)
    if (!etag) etags.set(etagKey, (etag = etagOf(body)))
    return { body, etag }
  }
}

/**
 * Serves the site's HTML pages (docs and tools) in the reader's language. A page depends only on
 * its name, its language and this server's settings, so each is rendered and compressed once.
 */
export function pageServer() {
  const rendered = new Map<string, Uint8Array>()
  const validated = validatedBodies()
  return (name: string, render: (language: LanguageCode) => string): Handler =>
    ({ request, set }) => {
      const choice = chooseLanguage(request)
      const key = `${name}:${choice.language}`
      let bytes = rendered.get(key)
      if (!bytes) {
        bytes = new TextEncoder().encode(render(choice.language))
        rendered.set(key, bytes)
      }
      const encoding = chooseEncoding(request.headers.get('accept-encoding'))
      // Chosen from the request's headers, the page differs per reader: caches must key on them.
      if (choice.source !== 'query') addVary(set.headers, 'Accept-Language', 'Cookie')
      addVary(set.headers, 'Accept-Encoding')
      const { body, etag } = validated(key, bytes, encoding)
      // no-cache: a browser asks every time, and its If-None-Match gets a 304 while the page stands.
      const headers: Record<string, string> = { 'cache-control': 'no-cache', etag }
      const unchanged = notModified(request, headers)
      if (unchanged) return unchanged
      Object.assign(headers, {
        'content-type': 'text/html; charset=utf-8',
        'content-language': choice.language,
      })
      if (encoding) headers['content-encoding'] = encoding
      return new Response(body, { headers })
    }
}

/** The request's query string, with its `?`, or nothing: a redirect keeps ?lang= and the rest. */
export function querySuffix(request: Request): string {
  const query = requestTarget(request).query.toString()
  return query ? `?${query}` : ''
}

export function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } })
}
