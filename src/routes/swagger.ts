import { swagger } from '@elysiajs/swagger'
import scalarBundle from '@scalar/api-reference/browser/standalone.js' with { type: 'file' }
import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { PROBLEM_SCHEMA } from '../openapi/errors.ts'
import { SECURITY_SCHEMES } from '../openapi/security.ts'
import { VERSION } from '../version.ts'

const HIDDEN = { detail: { hide: true } }

/** The OpenAPI document and its interactive view (Scalar, served from this process: no CDN, works offline). */
export function swaggerRoutes(context: AppContext) {
  const keys = context.access.keys.enabled
  return new Elysia()
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
        exclude: [/^\/docs/, '/', '/swagger-assets/scalar.js'],
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
          components: {
            schemas: { Problem: PROBLEM_SCHEMA },
            ...(keys ? { securitySchemes: SECURITY_SCHEMES } : {}),
          } as never,
        },
      }),
    )
}
