import { en } from '../../i18n.ts'
import { OPTION_NAMES } from '../../options/schema.ts'
import { componentData, componentStrings } from '../../tools/page-data.ts'
import { html, raw } from '../../site/html.ts'
import type { PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { optionDescription } from '../tables/options.ts'

/**
 * The tester's shell: its heading and lead, and the place its script (static/docs/tester, built
 * from the tools' components) draws the form and the answers. The form is generated in the
 * browser from the option facts this page carries, the same the tools read.
 */
export function testerPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const body = html`<h1>${t('site.tester.title')}</h1>
<p class="lead">${t('site.tester.lead')}</p>
<div id="tool" class="tester-app" data-tool="tester"><noscript><p class="notice">${t('site.tester.needsScript')}</p></noscript></div>`
  return {
    title: t('site.tester.title'),
    body: raw(body.value),
    data: {
      ...componentData(ctx.app, 'tester', ctx.language.code),
      strings: { ...componentStrings(ctx.language.code), ...testerStrings(ctx) },
    },
    assets: { script: 'tester.js', stylesheet: 'tester.css' },
  }
}

/**
 * The tester's own strings in the reader's language (English where missing), each endpoint's
 * summary, and each option's description, shown on demand beside its field.
 */
function testerStrings(ctx: PageContext): Record<string, string> {
  const keys = [
    ...Object.keys(en.site.tester).map((key) => `site.tester.${key}`),
    ...Object.keys(en.endpoints).map((id) => `endpoints.${id}.summary`),
  ]
  return Object.fromEntries([
    ...keys.map((key) => [key, ctx.t(key) as string]),
    ...OPTION_NAMES.map((name) => [`site.tester.option.${name}`, optionDescription(ctx, name)]),
  ])
}
