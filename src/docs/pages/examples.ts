import { codeBlock } from '../code-block.ts'
import { html, raw } from '../../site/html.ts'
import type { PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { documentedCommands, exampleSource } from '../examples.ts'

interface Example {
  /** Its file in static/examples, the locale key of its heading and text, its language. */
  readonly file: string
  readonly key: string
  readonly language: string
  /** A program the example needs first, shown with the commands of the example's opening comment. */
  readonly setup?: { readonly file: string; readonly language: string }
}

const EXAMPLES: readonly Example[] = [
  { file: 'curl.sh', key: 'curl', language: 'bash' },
  { file: 'browser.js', key: 'browser', language: 'javascript' },
  { file: 'node.mjs', key: 'node', language: 'javascript' },
  { file: 'compress.py', key: 'python', language: 'python' },
  { file: 'compress.php', key: 'php', language: 'php' },
  { file: 'compress.go', key: 'go', language: 'go' },
  { file: 'cli.sh', key: 'cli', language: 'bash' },
  { file: 'folder.sh', key: 'folder', language: 'bash' },
  {
    file: 'openapi-fetch.ts',
    key: 'typescript',
    language: 'typescript',
    setup: { file: 'openapi-types.mjs', language: 'javascript' },
  },
]

const path = (file: string) => html`<code translate="no">static/examples/${file}</code>`

function setupOf(ctx: PageContext, { file, key, setup }: Example) {
  if (!setup) return ''
  const { t } = ctx
  return html`<p>${t(`site.examples.${key}Setup`)}</p>
${codeBlock(ctx, documentedCommands(exampleSource(file)).join('\n'), 'bash')}
<p>${t(`site.examples.${key}Generator`)} ${path(setup.file)}</p>
${codeBlock(ctx, exampleSource(setup.file), setup.language)}`
}

export function examplesPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const toc = EXAMPLES.map(
    ({ key }) => html`<li><a href="#example-${key}">${t(`site.examples.${key}`)}</a></li>`,
  )
  const sections = EXAMPLES.map(
    (example) => html`<section id="example-${example.key}" aria-labelledby="example-${example.key}-title">
<h2 id="example-${example.key}-title">${t(`site.examples.${example.key}`)}</h2>
<p>${t(`site.examples.${example.key}Text`)} ${path(example.file)}</p>
${setupOf(ctx, example)}
${codeBlock(ctx, exampleSource(example.file), example.language)}
</section>`,
  )
  const body = html`<h1>${t('site.examples.title')}</h1>
<p class="lead">${t('site.examples.lead')}</p>
<p>${t('site.examples.retries')}</p>
<nav aria-label="${t('site.examples.title')}"><ul class="toc">${toc}</ul></nav>
${sections}`
  return { title: t('site.examples.title'), body: raw(body.value) }
}
