import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { assetByFileName } from '../docs/assets.ts'
import { renderPage } from '../docs/layout.ts'
import { AREAS, areaPath, pageContext, type Area } from '../docs/page-context.ts'
import { PAGES } from '../docs/pages/index.ts'
import { chooseEncoding, CompressedCache } from '../http/compression.ts'
import { addVary } from '../http/vary.ts'
import { pageServer, redirect } from './site-pages.ts'

const HIDDEN = { detail: { hide: true } }

/**
 * The documentation site: an overview and four areas, each a real URL, rendered on the server
 * in the reader's language. (`/` belongs to the tools, which lead here when they are off.)
 */
export function docsSiteRoutes(context: AppContext) {
  const compressed = new CompressedCache()
  const page = pageServer()
  const area = (name: Area) =>
    page(name, (language) => {
      const ctx = pageContext(context, name, language)
      return renderPage(ctx, PAGES[name](ctx))
    })

  const app = new Elysia()
    // Problem `type` links point at /docs/errors#CODE; the browser keeps the #CODE across this.
    .get('/docs/errors', () => redirect('/docs/reference', 301), HIDDEN)
    .get('/docs/', area('home'), HIDDEN)
    .get(
      '/docs/assets/:file',
      async ({ params, request, set }) => {
        const asset = assetByFileName(params.file)
        if (!asset) return new Response('Not found', { status: 404 })
        const encoding = chooseEncoding(request.headers.get('accept-encoding'))
        addVary(set.headers, 'Accept-Encoding')
        const headers: Record<string, string> = {
          'content-type': asset.type,
          // The name carries the content's hash: a new build is a new URL.
          'cache-control': 'public, max-age=31536000, immutable',
        }
        if (encoding) headers['content-encoding'] = encoding
        return new Response(compressed.get(asset.url, await asset.bytes(), encoding), { headers })
      },
      HIDDEN,
    )
  for (const name of AREAS) app.get(areaPath(name), area(name), HIDDEN)
  return app
}
