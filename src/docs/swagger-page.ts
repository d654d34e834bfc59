import { languageInfo, translator, type LanguageCode } from '../i18n.ts'
import { asset } from '../site/assets.ts'
import { attr, html } from '../site/html.ts'

/** Where the page loads Scalar from: this server, never a CDN. */
export const SCALAR_SCRIPT = '/swagger-assets/scalar.js'

/**
 * Scalar's settings: the document's URL at the top level (the `spec.url` the Swagger plugin
 * writes is deprecated, and Scalar says so in the console), and every request it would make to
 * the internet switched off: fonts, the AI agent, the developer tools.
 */
export const SCALAR_CONFIG = {
  url: '/swagger/json',
  theme: 'elysiajs',
  withDefaultFonts: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
} as const

/**
 * The interactive OpenAPI view at /swagger: Scalar under a small bar that leads back to the
 * documentation, in the reader's language (Scalar itself is English). The configuration element
 * is empty, so the page's Content-Security-Policy has no inline script to allow.
 */
export function renderSwaggerPage(language: LanguageCode, keepQuery: boolean): string {
  const t = translator(language)
  const { dir } = languageInfo(language)
  const docs = keepQuery ? `/docs/?lang=${language}` : '/docs/'
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>${t('site.nav.openapi')} · imgapi</title>
<link rel="icon" href="data:," />
<link rel="stylesheet" href="${asset('swagger.css').url}" />
</head>
<body>
<header class="docs-bar" lang="${language}" dir="${dir}">
<a class="docs-bar-brand" href="${docs}">imgapi</a>
<a class="docs-bar-back" href="${docs}">${t('site.nav.backToDocs')}</a>
</header>
<script id="api-reference"${attr('data-url', SCALAR_CONFIG.url)}${attr('data-configuration', JSON.stringify(SCALAR_CONFIG))}></script>
<script src="${SCALAR_SCRIPT}"></script>
</body>
</html>
`.value
}
