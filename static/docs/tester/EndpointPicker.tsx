import { env } from '../../kit/env.ts'
import { Choices } from '../../kit/ui/fields.tsx'
import { ENDPOINTS, type EndpointId } from './endpoints.ts'

/** The three endpoints as cards: method, path, and what each answers. */
export function EndpointPicker({ value, onChange }: { value: EndpointId; onChange(id: EndpointId): void }) {
  const { t } = env()
  return (
    <Choices
      legend={t('site.tester.endpoint')}
      name="endpoint"
      class="endpoints"
      value={value}
      choices={ENDPOINTS.map((endpoint) => ({
        value: endpoint.id,
        label: endpoint.path,
        code: true,
        hint: t(`endpoints.${endpoint.id}.summary`),
        picture: <span class="method">{endpoint.method}</span>,
      }))}
      onChange={(id) => onChange(id as EndpointId)}
    />
  )
}
