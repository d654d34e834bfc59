import { ERROR_CATALOGUE, errorTypeUri, type ErrorCode } from '../../errors/catalogue.ts'
import { html, raw, type Html } from '../../site/html.ts'
import { areaName, type PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { exampleSource } from '../examples.ts'
import { codeBlock } from '../code-block.ts'
import { settingCell, settingValue } from '../tables/settings.ts'
import { code, table } from '../tables/table.ts'
import { SETTINGS, type SettingName } from '../../settings.ts'

/** The limits a caller meets, each with the setting it comes from, in the order a request meets them. */
const LIMITS: readonly { key: string; setting: SettingName; pixels?: true }[] = [
  { key: 'headerBytes', setting: 'maxHeaderBytes' },
  { key: 'uploadBytes', setting: 'maxUploadBytes' },
  { key: 'uploadTimeout', setting: 'uploadTimeoutMs' },
  { key: 'inputPixels', setting: 'maxInputPixels', pixels: true },
  { key: 'frames', setting: 'maxFrames' },
  { key: 'outputDimension', setting: 'maxOutputDimension' },
  { key: 'outputPixels', setting: 'maxOutputPixels', pixels: true },
  { key: 'workers', setting: 'workers' },
  { key: 'queue', setting: 'queueLength' },
  { key: 'queueTimeout', setting: 'queueTimeoutMs' },
  { key: 'jobTimeout', setting: 'jobTimeoutMs' },
]

/**
 * What a request's url may reach and how fetches are bounded. The allow-list shows only whether
 * it is set: its entries name the operator's own network (settingValue never prints a private one).
 */
const URL_LIMITS: readonly { key: string; setting: SettingName }[] = [
  { key: 'urlSources', setting: 'urlSources' },
  { key: 'urlAllow', setting: 'urlAllow' },
  { key: 'urlTimeout', setting: 'urlTimeoutMs' },
  { key: 'urlFetches', setting: 'urlMaxFetches' },
  { key: 'urlFetchesPerHost', setting: 'urlMaxFetchesPerHost' },
]

const envName = (setting: SettingName) => code(SETTINGS[setting].env[0]!)

/** The request-rate limit every client without a key of its own meets, in words. */
function requestRate(ctx: PageContext): string {
  const policy = ctx.app.access.limiter.globalPolicy
  if (!policy) return ctx.t('site.rateLimits.requestRateOff')
  return ctx.t('site.rateLimits.requestRateValue', {
    limit: ctx.numbers.integer(policy.limit),
    window: ctx.numbers.seconds(policy.windowMs),
    burst: ctx.numbers.integer(policy.burst),
  })
}

const limitHeaders = ({ t }: PageContext) => [
  t('site.rateLimits.limit'),
  t('site.rateLimits.value'),
  t('site.common.setting'),
]

function urlSourcesTable(ctx: PageContext): Html {
  const rows = URL_LIMITS.map(({ key, setting }) => [
    ctx.t(`site.rateLimits.${key}`),
    settingCell(ctx, setting),
    envName(setting),
  ])
  return table({ headers: limitHeaders(ctx), rows, className: 'limits' })
}

function limitsTable(ctx: PageContext): Html {
  const { t, app } = ctx
  const rows = LIMITS.map(({ key, setting, pixels }) => {
    const value = pixels
      ? t('site.rateLimits.pixels', { value: settingValue(ctx, setting) })
      : settingCell(ctx, setting)
    return [t(`site.rateLimits.${key}`), value, envName(setting)]
  })
  const keysRequired = t(app.access.needsKey('compress') ? 'site.common.yes' : 'site.common.no')
  rows.push(
    [t('site.rateLimits.uploadBudget'), settingCell(ctx, 'uploadBudgetBytes'), envName('uploadBudgetBytes')],
    [t('site.rateLimits.decodeBudget'), settingCell(ctx, 'decodeBudgetBytes'), envName('decodeBudgetBytes')],
    [t('site.rateLimits.requestRate'), requestRate(ctx), envName('rateLimit')],
    [t('site.rateLimits.clientJobs'), settingCell(ctx, 'maxClientJobs'), envName('maxClientJobs')],
    // The setting that turned keys on; the file when neither is set, as the one to recommend.
    [
      t('site.rateLimits.apiKeys'),
      keysRequired,
      envName(app.config.apiKeys && !app.config.apiKeysFile ? 'apiKeys' : 'apiKeysFile'),
    ],
  )
  return table({ headers: limitHeaders(ctx), rows, className: 'limits' })
}

const ANSWERS: readonly { status: number; code: ErrorCode; key: string }[] = [
  { status: 413, code: 'PAYLOAD_TOO_LARGE', key: 'answer413' },
  { status: 422, code: 'IMAGE_TOO_LARGE', key: 'answer422' },
  { status: 429, code: 'RATE_LIMITED', key: 'answer429' },
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
<dd><p>${t(`site.rateLimits.${key}`)}</p><pre dir="ltr" translate="no" tabindex="0"><code>${JSON.stringify(example, null, 2)}</code></pre></dd>`
  })}</dl>`
}

export function rateLimitsPage(ctx: PageContext): PageContent {
  const { t } = ctx
  const title = areaName(ctx, 'rate-limits')
  const body = html`<h1>${title}</h1>
<p class="lead">${t('site.rateLimits.lead')}</p>
<section aria-labelledby="limits-title">
<h2 id="limits-title">${t('site.rateLimits.inForceTitle')}</h2>
${limitsTable(ctx)}
</section>
<section aria-labelledby="url-sources-title">
<h2 id="url-sources-title">${t('site.rateLimits.urlTitle')}</h2>
<p>${t('site.rateLimits.urlText')}</p>
${urlSourcesTable(ctx)}
</section>
<section aria-labelledby="answers-title">
<h2 id="answers-title">${t('site.rateLimits.answersTitle')}</h2>
<p>${t('site.rateLimits.answersLead')}</p>
${answers(ctx)}
<p>${t('site.rateLimits.headersText')}</p>
</section>
<section aria-labelledby="backoff-title">
<h2 id="backoff-title">${t('site.rateLimits.backoffTitle')}</h2>
<p>${t('site.rateLimits.backoffText')}</p>
<p>${t('site.rateLimits.backoffCode')}</p>
${codeBlock(ctx, exampleSource('backoff.mjs'), 'javascript')}
</section>`
  return { title, body: raw(body.value) }
}
