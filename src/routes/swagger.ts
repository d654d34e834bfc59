import { swagger } from '@elysiajs/swagger'
import scalarBundle from '@scalar/api-reference/browser/standalone.js' with { type: 'file' }
import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { chooseLanguage } from '../docs/language.ts'
import { renderSwaggerPage, SCALAR_CONFIG, SCALAR_SCRIPT } from '../docs/swagger-page.ts'
import { addVary } from '../http/vary.ts'
import { PROBLEM_SCHEMA } from '../openapi/errors.ts'
import { SECURITY_SCHEMES } from '../openapi/security.ts'
import { VERSION } from '../version.ts'

const HIDDEN = { detail: { hide: true } }

/** The OpenAPI document and its interactive view (Scalar, served from this process: no CDN, works offline). */
export function swaggerRoutes(context: AppContext) {
  const keys = context.access.keys.enabled
  const pages = new Map<string, string>()
  return (
    new Elysia()
      .get(
        SCALAR_SCRIPT,
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
          exclude: [/^\/docs/, '/', SCALAR_SCRIPT],
          // The plugin's own page is replaced below; these keep it offline all the same.
          scalarCDN: SCALAR_SCRIPT,
          // The plugin's bundled Scalar types predate these keys.
          scalarConfig: SCALAR_CONFIG as Record<string, unknown>,
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
      // Registered after the plugin, this replaces its page (Elysia keeps the later handler for a
      // method and path): ours leads back to the documentation and gives Scalar its settings
      // without the deprecated spec.url. A test checks that this page is the one served.
      .get(
        '/swagger',
        ({ request, set }) => {
          const choice = chooseLanguage(request)
          const keepQuery = choice.source === 'query'
          if (!keepQuery) addVary(set.headers, 'Accept-Language', 'Cookie')
          const key = `${choice.language}:${keepQuery}`
          let page = pages.get(key)
          if (!page) pages.set(key, (page = renderSwaggerPage(choice.language, keepQuery)))
          return new Response(page, {
            headers: { 'content-type': 'text/html; charset=utf-8' },
          })
        },
        HIDDEN,
      )
  )
}
