import { swagger } from '@elysiajs/swagger'
import scalarBundle from '@scalar/api-reference/browser/standalone.js' with { type: 'file' }
import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import landingHtml from '../../static/index.html' with { type: 'text' }
import { PROBLEM_SCHEMA } from '../openapi/errors.ts'
import { VERSION } from '../version.ts'
import { renderErrorReference } from './error-reference.ts'

// bun-types describes .html imports as bundles; with type 'text' the import is the file's text.
const landingPage = landingHtml as unknown as string
const HIDDEN = { detail: { hide: true } }
const html = (body: string) => new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })

/**
 * The OpenAPI reference (Scalar, served from this process: no CDN, works offline), the
 * error reference that problem `type` links point to, and the landing page.
 */
export function docsRoutes(_context: AppContext) {
  return new Elysia()
    .get('/', () => html(landingPage), HIDDEN)
    .get('/docs/errors', () => html(renderErrorReference()), HIDDEN)
    .get(
      '/swagger-assets/scalar.js',
      () =>
        new Response(Bun.file(scalarBundle), {
          headers: {
            'content-type': 'text/javascript; charset=utf-8',
            'cache-control': 'public, max-age=86400',
          },
        }),
      HIDDEN,
    )
    .use(
      swagger({
        path: '/swagger',
        specPath: '/swagger/json',
        exclude: ['/', '/docs/errors', '/swagger-assets/scalar.js'],
        scalarCDN: '/swagger-assets/scalar.js',
        // The plugin's bundled Scalar types predate these keys; they switch off every request
        // the reference would otherwise make to the internet (fonts, AI agent, dev tools).
        scalarConfig: {
          spec: { url: '/swagger/json' },
          withDefaultFonts: false,
          agent: { disabled: true },
          showDeveloperTools: 'never',
        } as Record<string, unknown>,
        documentation: {
          info: {
            title: 'imgapi',
            version: VERSION,
            description:
              'Self-hosted image compression and conversion. Every error is application/problem+json (RFC 9457) with a stable `code`; see /docs/errors.',
            license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
            contact: { name: 'imgapi' },
          },
          servers: [{ url: '/', description: 'This server' }],
          tags: [
            { name: 'Images', description: 'Compression and conversion.' },
            { name: 'Service', description: 'Health and capabilities.' },
          ],
          components: { schemas: { Problem: PROBLEM_SCHEMA } } as never,
        },
      }),
    )
}
