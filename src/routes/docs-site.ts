import { Elysia, NotFoundError } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { assetByFileName } from '../site/assets.ts'
import { renderPage } from '../docs/layout.ts'
import { AREAS, areaPath, pageContext, type Area } from '../docs/page-context.ts'
import { PAGES } from '../docs/pages/index.ts'
import { chooseEncoding } from '../http/compression.ts'
import { notModified } from '../http/conditional.ts'
import { addVary } from '../http/vary.ts'
import { pageServer, querySuffix, redirect, validatedBodies } from './site-pages.ts'

const HIDDEN = { detail: { hide: true } }

/**
 * The documentation site: an overview and four areas, each a real URL, rendered on the server
 * in the reader's language. (`/` belongs to the tools, which lead here when they are off.)
 */
export function docsSiteRoutes(context: AppContext) {
  const validated = validatedBodies()
  const page = pageServer()
  const area = (name: Area) =>
    page(name, (language) => {
      const ctx = pageContext(context, name, language)
      return renderPage(ctx, PAGES[name](ctx))
    })

  const app = new Elysia()
    // Problem `type` links point at /docs/errors#CODE; the browser keeps the #CODE across this,
    // and the query (?lang=) goes along so the reader lands in the language asked for.
    .get('/docs/errors', ({ request }) => redirect(`/docs/reference${querySuffix(request)}`, 301), HIDDEN)
    .get('/docs/', area('home'), HIDDEN)
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
  for (const name of AREAS) app.get(areaPath(name), area(name), HIDDEN)
  return app
}
