import type { OpenAPIV3 } from 'openapi-types'
import { ENDPOINTS as API_ENDPOINTS, REFERENCE_PATH } from '../../endpoints.ts'
import { ERROR_CODES, OPERATION_ERRORS, type Operation } from '../../errors/catalogue.ts'
import { FORMATS_SCHEMA, HEALTH_SCHEMA, RESULT_SCHEMA } from '../../openapi/responses.ts'
import { withContents, type ContentsEntry } from '../contents.ts'
import { html, raw, type Html } from '../../site/html.ts'
import { areaLink, type PageContent } from '../layout.ts'
import type { PageContext } from '../page-context.ts'
import { autoLevels } from '../tables/auto-levels.ts'
import { errorLinks, errorsTable } from '../tables/errors.ts'
import { fieldsTable } from '../tables/fields.ts'
import { formatsTable } from '../tables/formats.ts'
import { headersTable } from '../tables/headers.ts'
import { optionsTable } from '../tables/options.ts'
import { settingsTable } from '../tables/settings.ts'
import { code } from '../tables/table.ts'
import { tMarkup } from '../translate.ts'

const BODIES: Readonly<Record<Operation, OpenAPIV3.SchemaObject>> = {
  health: HEALTH_SCHEMA,
  formats: FORMATS_SCHEMA,
  compress: RESULT_SCHEMA,
}

const ENDPOINTS = API_ENDPOINTS.map((endpoint) => ({ ...endpoint, body: BODIES[endpoint.operation] }))

function compressRequest(ctx: PageContext): Html {
  const { t } = ctx
  return html`<h4 id="compress-parameters">${t('site.reference.parameters')}</h4>
<p>${t('site.reference.optionsIntro')}</p>
${optionsTable(ctx)}
<h4>${t('site.reference.requestBody')}</h4>
<p>${t('site.reference.bodyText', { limit: ctx.numbers.bytes(ctx.app.config.maxUploadBytes) })}</p>
${autoLevels(ctx)}`
}

/** Not the bare operation name: the formats operation and the formats section would share it. */
const endpointId = (operation: Operation) => `endpoint-${operation}`

const endpointName = (endpoint: (typeof ENDPOINTS)[number]) =>
  html`<span class="method">${endpoint.method}</span> ${code(endpoint.path)}`

function contents(ctx: PageContext): ContentsEntry[] {
  const { t } = ctx
  return [
    {
      id: 'endpoints',
      label: t('site.reference.endpointsTitle'),
      children: ENDPOINTS.map((endpoint) => ({
        id: endpointId(endpoint.operation),
        label: endpointName(endpoint),
        children:
          endpoint.operation === 'compress'
            ? [
                { id: 'compress-parameters', label: t('site.reference.parameters') },
                { id: 'similarity', label: t('site.reference.autoLevels.title') },
              ]
            : undefined,
      })),
    },
    { id: 'errors', label: t('site.reference.errorsTitle') },
    { id: 'formats', label: t('site.reference.formatsTitle') },
    { id: 'settings', label: t('site.reference.settingsTitle') },
  ]
}

function endpointSection(ctx: PageContext, endpoint: (typeof ENDPOINTS)[number]): Html {
  const { t } = ctx
  const { operation } = endpoint
  const isCompress = operation === 'compress'
  return html`<section class="endpoint" id="${endpointId(operation)}" aria-labelledby="${endpointId(operation)}-title">
<h3 id="${endpointId(operation)}-title">${endpointName(endpoint)}</h3>
<p class="summary"><strong>${t(`endpoints.${operation}.summary`)}</strong></p>
<p>${t(`endpoints.${operation}.description`)}</p>
${isCompress ? compressRequest(ctx) : ''}
<h4>${t('site.reference.responseBody')}</h4>
${isCompress ? html`<p>${t('site.reference.imageBody')}</p>` : ''}
${fieldsTable(ctx, operation, endpoint.body)}
<h4>${t('site.reference.responseHeaders')}</h4>
${headersTable(ctx, operation)}
<h4>${t('site.common.seeErrors')}</h4>
${errorLinks(OPERATION_ERRORS[operation])}
</section>`
}

export function referencePage(ctx: PageContext): PageContent {
  const { t } = ctx
  const links = tMarkup(t, 'site.common.openapiLinks', {
    document: html`<a href="${REFERENCE_PATH}/json">${t('site.nav.spec')}</a>`,
    viewer: html`<a href="${REFERENCE_PATH}"><code translate="no">${REFERENCE_PATH}</code></a>`,
  })
  const sections = html`<section id="endpoints" aria-labelledby="endpoints-title">
<h2 id="endpoints-title">${t('site.reference.endpointsTitle')}</h2>
${ENDPOINTS.map((endpoint) => endpointSection(ctx, endpoint))}
</section>
<section id="errors" aria-labelledby="errors-title">
<h2 id="errors-title">${t('site.reference.errorsTitle')}</h2>
<p>${t('site.reference.errorsLead')}</p>
${headersTable(ctx, 'errors')}
${errorsTable(ctx, ERROR_CODES)}
</section>
<section id="formats" aria-labelledby="formats-title">
<h2 id="formats-title">${t('site.reference.formatsTitle')}</h2>
<p>${t('site.reference.formatsLead')}</p>
${formatsTable(ctx)}
</section>
<section id="settings" aria-labelledby="settings-title">
<h2 id="settings-title">${t('site.reference.settingsTitle')}</h2>
<p>${tMarkup(t, 'site.reference.settingsLead', { limitsPage: areaLink(ctx, 'rate-limits') })}</p>
${settingsTable(ctx)}
</section>`
  const body = html`<h1>${t('site.reference.title')}</h1>
<p class="lead">${t('site.reference.lead')}</p>
<p>${links}</p>
${withContents(t('site.reference.contents'), contents(ctx), sections)}`
  return { title: t('site.reference.title'), body: raw(body.value) }
}
