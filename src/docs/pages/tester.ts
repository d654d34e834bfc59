import type { TSchema } from '@sinclair/typebox'
import { endpointOf, ENDPOINTS } from '../../endpoints.ts'
import { en } from '../../i18n.ts'
import { OPTION_NAMES, optionSchema, type OptionName } from '../../options/schema.ts'
import { attr, html, raw, type Html } from '../html.ts'
import type { PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { optionDescription } from '../tables/options.ts'

/** A select that starts at "(default)": leaving an option unset is a valid, distinct choice. */
function select(ctx: PageContext, id: string, name: string, values: readonly string[], hint: string): Html {
  return html`<select id="${id}" name="${name}" aria-describedby="${hint}">
<option value="">${ctx.t('site.tester.unset')}</option>
${values.map((v) => html`<option value="${v}" translate="no">${v}</option>`)}
</select>`
}

/** One form control per option, from the option schema that validates requests. */
function optionField(ctx: PageContext, name: OptionName): Html {
  const schema: TSchema = optionSchema(name)
  const id = `option-${name}`
  const hint = `${id}-hint`
  let control: Html
  if (Array.isArray(schema.anyOf)) {
    // A number or a word: free text, with the words offered.
    const words = (schema.anyOf as TSchema[]).flatMap((branch) => (branch.enum as string[] | undefined) ?? [])
    control = html`<input id="${id}" name="${name}" type="text" dir="ltr" spellcheck="false" list="${id}-words" aria-describedby="${hint}"><datalist id="${id}-words">${words.map((w) => html`<option value="${w}">`)}</datalist>`
  } else if (Array.isArray(schema.enum)) control = select(ctx, id, name, schema.enum as string[], hint)
  else if (schema.type === 'boolean') control = select(ctx, id, name, ['true', 'false'], hint)
  else if (schema.type === 'integer') {
    const max = name === 'width' || name === 'height' ? ctx.app.config.maxOutputDimension : schema.maximum
    control = html`<input id="${id}" name="${name}" type="number" inputmode="numeric" step="1" min="${schema.minimum}" max="${max}" aria-describedby="${hint}">`
  } else if (schema.type === 'number') {
    control = html`<input id="${id}" name="${name}" type="number" inputmode="decimal" step="any" min="${schema.minimum}" max="${schema.maximum}" aria-describedby="${hint}">`
  } else {
    control = html`<input id="${id}" name="${name}" type="text" dir="ltr" spellcheck="false"${attr('pattern', schema.pattern)}${attr('maxlength', schema.maxLength)} placeholder="${String(schema.default ?? '')}" aria-describedby="${hint}">`
  }
  return html`<div class="field" data-option="${name}">
<label for="${id}"><code translate="no">${name}</code></label>
${control}
<p class="hint" id="${hint}"><span class="range" data-range></span>${optionDescription(ctx, name)}</p>
</div>`
}

function endpointChoice(ctx: PageContext): Html {
  const choices = ENDPOINTS.map(
    (
      e,
    ) => html`<label class="endpoint-choice"><input type="radio" name="endpoint" value="${e.operation}" data-method="${e.method}" data-path="${e.path}"${attr('checked', e.operation === 'compress')}>
<span><span class="method">${e.method}</span> <code translate="no">${e.path}</code></span></label>`,
  )
  return html`<fieldset class="endpoints"><legend>${ctx.t('site.tester.endpoint')}</legend>${choices}</fieldset>`
}

function compressFields(ctx: PageContext): Html {
  const { t } = ctx
  return html`<div data-for-endpoint="compress">
<div class="dropzone" data-dropzone>
<label for="tester-file">${t('site.tester.file')}</label>
<input id="tester-file" name="file" type="file" accept="image/*,.avif,.heic,.jxl,.svg,.svgz,.tif,.tiff" aria-describedby="tester-file-hint">
<p class="hint" id="tester-file-hint">${t('site.tester.dropHint')}</p>
<p class="file-info" data-file-info aria-live="polite"></p>
</div>
<div class="field overlay-file">
<label for="tester-overlay">${t('site.tester.overlay')}</label>
<input id="tester-overlay" name="overlay" type="file" accept="image/png,image/webp,image/svg+xml,image/*" aria-describedby="tester-overlay-hint">
<p class="hint" id="tester-overlay-hint">${t('site.tester.overlayHint')}</p>
</div>
<fieldset class="options"><legend>${t('site.tester.options')}</legend>
${OPTION_NAMES.map((name) => optionField(ctx, name))}
</fieldset>
<fieldset class="accept"><legend>${t('site.tester.responseAs')}</legend>
<label><input type="radio" name="accept" value="image" checked> ${t('site.tester.asImage')}</label>
<label><input type="radio" name="accept" value="json"> ${t('site.tester.asJson')} <code translate="no">Accept: application/json</code></label>
</fieldset>
</div>`
}

/** Every string the tester script shows, resolved in the reader's language (English where missing). */
function clientStrings(ctx: PageContext): Record<string, string> {
  const keys = Object.keys(en.site.tester).map((key) => `site.tester.${key}`)
  return Object.fromEntries(keys.map((key) => [key, ctx.t(key) as string]))
}

/** Only when this server requires keys; the script keeps the value in the tab's sessionStorage. */
function keyField(ctx: PageContext): Html {
  if (!ctx.app.access.keys.enabled) return html``
  const { t } = ctx
  return html`<div class="field key-field">
<label for="tester-key">${t('site.tester.apiKey')}</label>
<input id="tester-key" name="apiKey" type="password" autocomplete="off" spellcheck="false" dir="ltr" data-api-key aria-describedby="tester-key-hint">
<p class="hint" id="tester-key-hint">${t('site.tester.apiKeyHint')}</p>
</div>`
}

export function testerPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const body = html`<h1>${t('site.tester.title')}</h1>
<p class="lead">${t('site.tester.lead')}</p>
<form class="tester" data-tester method="post" action="${endpointOf('compress').path}" enctype="multipart/form-data">
${endpointChoice(ctx)}
${keyField(ctx)}
${compressFields(ctx)}
<p class="actions"><button type="submit" class="primary" data-send>${t('site.tester.send')}</button> <span class="status-text" data-status aria-live="polite"></span></p>
</form>
<section class="result" data-result aria-labelledby="result-title" hidden>
<h2 id="result-title" tabindex="-1">${t('site.tester.result')}</h2>
<div data-result-body></div>
</section>`
  return {
    title: t('site.tester.title'),
    body: raw(body.value),
    data: { strings: clientStrings(ctx), referencePath: '/docs/reference' },
  }
}
