import { codeBlock } from '../code-block.ts'
import { html, raw } from '../html.ts'
import type { PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { exampleSource } from '../examples.ts'

/** Each example: its file in static/examples, the locale key of its heading and text, its language. */
const EXAMPLES: readonly { file: string; key: string; language: string }[] = [
  { file: 'curl.sh', key: 'curl', language: 'bash' },
  { file: 'browser.js', key: 'browser', language: 'javascript' },
  { file: 'node.mjs', key: 'node', language: 'javascript' },
  { file: 'compress.py', key: 'python', language: 'python' },
  { file: 'compress.php', key: 'php', language: 'php' },
  { file: 'compress.go', key: 'go', language: 'go' },
  { file: 'folder.sh', key: 'folder', language: 'bash' },
  { file: 'openapi-fetch.ts', key: 'typescript', language: 'typescript' },
]

export function examplesPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const toc = EXAMPLES.map(
    ({ key }) => html`<li><a href="#example-${key}">${t(`site.examples.${key}`)}</a></li>`,
  )
  const sections = EXAMPLES.map(
    ({ file, key, language }) => html`<section id="example-${key}" aria-labelledby="example-${key}-title">
<h2 id="example-${key}-title">${t(`site.examples.${key}`)}</h2>
<p>${t(`site.examples.${key}Text`)} <code translate="no">static/examples/${file}</code></p>
${codeBlock(ctx, exampleSource(file), language)}
</section>`,
  )
  const body = html`<h1>${t('site.examples.title')}</h1>
<p class="lead">${t('site.examples.lead')}</p>
<nav aria-label="${t('site.examples.title')}"><ul class="toc">${toc}</ul></nav>
${sections}`
  return { title: t('site.examples.title'), body: raw(body.value) }
}
