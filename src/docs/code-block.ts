import { attr, html, type Html } from '../site/html.ts'
import type { PageContext } from './page-context.ts'

/**
 * A code block: left to right in every language, never translated, with a copy button. The pre
 * takes keyboard focus, since a long line scrolls it sideways and a keyboard must reach that too.
 * `wrap` is for a single command, which reads better wrapped than scrolled.
 */
export function codeBlock(
  ctx: PageContext,
  source: string | Html,
  language?: string,
  { wrap = false } = {},
): Html {
  const className = language ? `language-${language}` : undefined
  // The whole block is left to right: the copy button sits above the code, at its right end.
  return html`<div class="code-block" dir="ltr"><button type="button" class="copy" data-copy>${ctx.t('site.common.copy')}</button><pre dir="ltr" translate="no" tabindex="0"${attr('class', wrap && 'wrap')}><code class="${className ?? ''}">${source}</code></pre></div>`
}
