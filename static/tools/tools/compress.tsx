import { env } from '../../kit/env.ts'
import { batchTool, type SettingsForm } from '../../kit/ui/BatchTool.tsx'
import { CheckField, Choices, NumberField } from '../../kit/ui/fields.tsx'
import { FormatSelect } from '../../kit/ui/FormatSelect.tsx'
import { qualityOptions, QualityFields } from './quality.tsx'

export interface CompressSettings {
  readonly format: string
  readonly quality: string
  readonly qualityNumber: number
  /** Largest result in KiB (maxBytes); 0 for none. */
  readonly targetKib: number
  readonly allowResize: boolean
  readonly metadata: string
}

/** The smallest target the field takes, in its unit: the API's maxBytes counts bytes from 1. */
const TARGET_KIB = { min: 1 } as const

const DEFAULTS: CompressSettings = {
  format: 'original',
  quality: '',
  qualityNumber: 75,
  targetKib: 0,
  allowResize: false,
  metadata: 'strip',
}

export function compressQuery(settings: CompressSettings): URLSearchParams {
  const query = new URLSearchParams()
  if (settings.format !== 'original') query.set('format', settings.format)
  qualityOptions(settings, query)
  if (settings.targetKib > 0) {
    query.set('maxBytes', String(Math.round(settings.targetKib * 1024)))
    if (settings.allowResize) query.set('allowResize', 'true')
  }
  if (settings.metadata !== 'strip') query.set('metadata', settings.metadata)
  return query
}

const CompressSettingsForm: SettingsForm<CompressSettings> = ({ settings, set, facts }) => {
  const { t } = env()
  const metadata = env().data.options.metadata
  return (
    <>
      <FormatSelect
        facts={facts}
        words={['original', 'auto']}
        hint={t(
          `compress.formatHint.${settings.format === 'original' || settings.format === 'auto' ? settings.format : 'named'}`,
        )}
        value={settings.format}
        onChange={(format) => set({ format })}
      />
      <QualityFields settings={settings} format={settings.format} facts={facts} onChange={set} />
      <NumberField
        id="target"
        label={t('compress.target')}
        hint={t('compress.targetHint')}
        unit="KiB"
        range={TARGET_KIB}
        placeholder={t('compress.targetNone')}
        value={settings.targetKib || undefined}
        onChange={(value) => set({ targetKib: value ?? 0 })}
      />
      <CheckField
        id="allow-resize"
        label={t('compress.allowResize')}
        hint={t('compress.allowResizeHint')}
        checked={settings.allowResize}
        disabled={!settings.targetKib}
        onChange={(allowResize) => set({ allowResize })}
      />
      <Choices
        legend={t('compress.metadata')}
        name="metadata"
        value={settings.metadata}
        choices={(metadata?.kind === 'enum' ? metadata.values : ['strip', 'keep']).map((value) => ({
          value,
          label: t(`compress.metadataName.${value}`),
          hint: t(`compress.metadataHint.${value}`),
        }))}
        onChange={(value) => set({ metadata: value })}
      />
    </>
  )
}

export const CompressTool = batchTool({
  tool: 'compress',
  defaults: DEFAULTS,
  commonQuery: compressQuery,
  fromUrl: true,
  Form: CompressSettingsForm,
})
