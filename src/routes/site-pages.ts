import { chooseLanguage } from '../docs/language.ts'
import { chooseEncoding, CompressedCache } from '../http/compression.ts'
import { requestTarget } from '../http/request-target.ts'
import { addVary } from '../http/vary.ts'
import type { LanguageCode } from '../i18n.ts'

type Headers = Record<string, string | number>
type Handler = (context: { request: Request; set: { headers: Headers } }) => Response

/**
 * Serves the site's HTML pages (docs and tools) in the reader's language. A page depends only on
 * its name, its language and this server's settings, so each is rendered and compressed once.
 */
export function pageServer() {
  const rendered = new Map<string, Uint8Array>()
  const compressed = new CompressedCache()
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
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        'content-language': choice.language,
        'cache-control': 'no-cache',
      }
      if (encoding) headers['content-encoding'] = encoding
      return new Response(compressed.get(key, bytes, encoding), { headers })
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
