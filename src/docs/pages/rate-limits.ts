import { ERROR_CATALOGUE, errorTypeUri, type ErrorCode } from '../../errors/catalogue.ts'
import { html, raw, type Html } from '../html.ts'
import type { PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { exampleSource } from '../examples.ts'
import { codeBlock } from '../code-block.ts'
import { settingValue } from '../tables/settings.ts'
import { code, table } from '../tables/table.ts'
import type { SettingName } from '../../settings.ts'

/** The limits a caller meets, each with the setting it comes from, in the order a request meets them. */
const LIMITS: readonly { key: string; setting: SettingName; pixels?: true }[] = [
  { key: 'headerBytes', setting: 'maxHeaderBytes' },
  { key: 'uploadBytes', setting: 'maxUploadBytes' },
  { key: 'uploadTimeout', setting: 'uploadTimeoutMs' },
  { key: 'inputPixels', setting: 'maxInputPixels', pixels: true },
  { key: 'frames', setting: 'maxFrames' },
  { key: 'outputDimension', setting: 'maxOutputDimension' },
  { key: 'outputPixels', setting: 'maxOutputPixels', pixels: true },
  { key: 'avifEffort', setting: 'maxAvifEffort' },
  { key: 'avifPixels', setting: 'maxAvifPixels', pixels: true },
  { key: 'workers', setting: 'workers' },
  { key: 'queue', setting: 'queueLength' },
  { key: 'jobTimeout', setting: 'jobTimeoutMs' },
]

function limitsTable(ctx: PageContext): Html {
  const { t, numbers, app } = ctx
  const rows = LIMITS.map(({ key, setting, pixels }) => {
    const value = settingValue(ctx, setting)
    return [
      t(`site.rateLimits.${key}`),
      pixels ? t('site.rateLimits.pixels', { value }) : value,
      code(setting),
    ]
  })
  rows.push(
    [
      t('site.rateLimits.uploadBudget'),
      numbers.bytes(app.memory.uploadBudgetBytes),
      code('uploadBudgetBytes'),
    ],
    [
      t('site.rateLimits.decodeBudget'),
      numbers.bytes(app.memory.decodeBudgetBytes),
      code('decodeBudgetBytes'),
    ],
    [t('site.rateLimits.requestRate'), t('site.rateLimits.requestRateOff'), code('—')],
  )
  return table({
    headers: [t('site.rateLimits.limit'), t('site.rateLimits.value'), t('site.common.setting')],
    rows,
    className: 'limits',
  })
}

const ANSWERS: readonly { status: number; code: ErrorCode; key: string }[] = [
  { status: 413, code: 'PAYLOAD_TOO_LARGE', key: 'answer413' },
  { status: 422, code: 'IMAGE_TOO_LARGE', key: 'answer422' },
  { status: 503, code: 'OVERLOADED', key: 'answer503' },
]

function answers(ctx: PageContext): Html {
  const { t } = ctx
  return html`<dl class="answers">${ANSWERS.map(({ status, code: errorCode, key }) => {
    const example = {
      type: errorTypeUri(errorCode),
      title: t(`errors.${errorCode}.title`),
      status: ERROR_CATALOGUE[errorCode].status,
      code: errorCode,
    }
    return html`<dt>${code(String(status))} ${code(errorCode)}</dt>
<dd><p>${t(`site.rateLimits.${key}`)}</p><pre dir="ltr" translate="no"><code>${JSON.stringify(example, null, 2)}</code></pre></dd>`
  })}</dl>`
}

export function rateLimitsPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const body = html`<h1>${t('site.rateLimits.title')}</h1>
<p class="lead">${t('site.rateLimits.lead')}</p>
<section aria-labelledby="limits-title">
<h2 id="limits-title">${t('site.rateLimits.inForceTitle')}</h2>
${limitsTable(ctx)}
</section>
<section aria-labelledby="answers-title">
<h2 id="answers-title">${t('site.rateLimits.answersTitle')}</h2>
<p>${t('site.rateLimits.answersLead')}</p>
${answers(ctx)}
</section>
<section aria-labelledby="backoff-title">
<h2 id="backoff-title">${t('site.rateLimits.backoffTitle')}</h2>
<p>${t('site.rateLimits.backoffText')}</p>
<p>${t('site.rateLimits.backoffCode')}</p>
${codeBlock(ctx, exampleSource('backoff.mjs'), 'javascript')}
</section>`
  return { title: t('site.rateLimits.title'), body: raw(body.value) }
}
