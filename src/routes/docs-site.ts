import { Elysia, NotFoundError } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { assetByFileName } from '../docs/assets.ts'
import { chooseLanguage } from '../docs/language.ts'
import { renderPage } from '../docs/layout.ts'
import { AREAS, areaPath, pageContext, type Area } from '../docs/page-context.ts'
import { PAGES } from '../docs/pages/index.ts'
import { chooseEncoding, CompressedCache, type Encoding } from '../http/compression.ts'
import { etagOf, notModified } from '../http/conditional.ts'
import { requestTarget } from '../http/request-target.ts'
import { addVary } from '../http/vary.ts'
import type { LanguageCode } from '../i18n.ts'

const HIDDEN = { detail: { hide: true } }
const HTML = 'text/html; charset=utf-8'

type Headers = Record<string, string | number>

/**
 * The documentation site: an overview and four areas, each a real URL, rendered on the server
 * in the reader's language. A page depends only on its area, its language and this server's
 * settings, so each is rendered and compressed once.
 */
export function docsSiteRoutes(context: AppContext) {
  const rendered = new Map<string, Uint8Array>()
  const compressed = new CompressedCache()
  const etags = new Map<string, string>()
  /** A body that never changes while the process runs, its ETag hashed once per encoding. */
  const validated = (key: string, bytes: Uint8Array, encoding: Encoding | undefined) => {
    const body = compressed.get(key, bytes, encoding)
    const etagKey = `${encoding ?? 'identity'}:${key}`
    let etag = etags.get(etagKey)
    if (!etag) etags.set(etagKey, (etag = etagOf(body)))
    return { body, etag }
  }

  const pageBytes = (area: Area, language: LanguageCode) => {
    const key = `${area}:${language}`
    let bytes = rendered.get(key)
    if (!bytes) {
      const ctx = pageContext(context, area, language)
      bytes = new TextEncoder().encode(renderPage(ctx, PAGES[area](ctx)))
      rendered.set(key, bytes)
    }
    return { key, bytes }
  }

  const page =
    (area: Area) =>
    ({ request, set }: { request: Request; set: { headers: Headers } }) => {
      const choice = chooseLanguage(request)
      const { key, bytes } = pageBytes(area, choice.language)
      const encoding = chooseEncoding(request.headers.get('accept-encoding'))
      // Chosen from the request's headers, the page differs per reader: caches must key on them.
      if (choice.source !== 'query') addVary(set.headers, 'Accept-Language', 'Cookie')
      addVary(set.headers, 'Accept-Encoding')
      const { body, etag } = validated(key, bytes, encoding)
      // no-cache: a browser asks every time, and its If-None-Match gets a 304 while the page stands.
      const headers: Record<string, string> = { 'cache-control': 'no-cache', etag }
      const unchanged = notModified(request, headers)
      if (unchanged) return unchanged
      Object.assign(headers, { 'content-type': HTML, 'content-language': choice.language })
      if (encoding) headers['content-encoding'] = encoding
      return new Response(body, { headers })
    }

  const app = new Elysia()
    .get('/', ({ request }) => redirect(`/docs/${querySuffix(request)}`), HIDDEN)
    // Problem `type` links point at /docs/errors#CODE; the browser keeps the #CODE across this,
    // and the query (?lang=) goes along so the reader lands in the language asked for.
    .get('/docs/errors', ({ request }) => redirect(`/docs/reference${querySuffix(request)}`, 301), HIDDEN)
    .get('/docs/', page('home'), HIDDEN)
    .get(
      '/docs/assets/:file',
      ({ params, request, set }) => {
        const asset = assetByFileName(params.file)
        // The same problem+json 404 as every other unknown path, from the one error handler.
        if (!asset) throw new NotFoundError()
        const encoding = chooseEncoding(request.headers.get('accept-encoding'))
        addVary(set.headers, 'Accept-Encoding')
        const { body, etag } = validated(asset.url, asset.bytes(), encoding)
        // The name carries the content's hash: a new build is a new URL.
        const headers: Record<string, string> = {
          'cache-control': 'public, max-age=31536000, immutable',
          etag,
        }
        const unchanged = notModified(request, headers)
        if (unchanged) return unchanged
        headers['content-type'] = asset.type
        if (encoding) headers['content-encoding'] = encoding
        return new Response(body, { headers })
      },
      HIDDEN,
    )
  for (const area of AREAS) app.get(areaPath(area), page(area), HIDDEN)
  return app
}

function querySuffix(request: Request): string {
  const query = requestTarget(request).query.toString()
  return query ? `?${query}` : ''
}

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { location } })
}
