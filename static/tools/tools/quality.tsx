import { formatName } from '../../kit/api/format-name.ts'
import type { ServerFacts } from '../../kit/api/server.ts'
import { env } from '../../kit/env.ts'
import { NumberField, SelectField } from '../../kit/ui/fields.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { Prose } from '../../kit/ui/Prose.tsx'

/** Quality as the tools offer it: the format's default, an auto level, or a number. */
export interface QualitySettings {
  /** '' for the format's default, an auto level, or 'number'. */
  readonly quality: string
  readonly qualityNumber: number
}

export function qualityOptions(settings: QualitySettings, query: URLSearchParams): void {
  if (settings.quality === 'number') query.set('quality', String(settings.qualityNumber))
  else if (settings.quality) query.set('quality', settings.quality)
}

/** The levels the server knows, from the option schema's words (auto, auto-high…). */
function levels(): string[] {
  const facts = env().data.options.quality
  return facts?.kind === 'integer-or-word' ? facts.words : []
}

const LEVEL_KEYS: Record<string, string> = {
  auto: 'auto',
  'auto-high': 'autoHigh',
  'auto-medium': 'autoMedium',
  'auto-low': 'autoLow',
}

export function QualityFields(props: {
  settings: QualitySettings
  format: string
  facts: ServerFacts
  onChange(next: Partial<QualitySettings>): void
}) {
  const { t, numbers } = env()
  const tunable = props.facts.formats.find((f) => f.id === props.format)?.tunables.quality
  // The chosen format's range (GET /api/formats), or the option's own for "original" and "auto".
  const range = tunable ?? optionRange('quality')
  const level = props.settings.quality
  const hint =
    level === ''
      ? tunable?.default !== undefined
        ? t('common.qualityDefaultFor', {
            format: formatName(props.format),
            quality: numbers.integer(Number(tunable.default)),
          })
        : t('common.qualityDefault')
      : level === 'number'
        ? t('common.qualityNumberHint')
        : t(`common.level.${LEVEL_KEYS[level] ?? 'auto'}`)
  return (
    <>
      <SelectField
        id="quality"
        label={t('common.quality')}
        hint={<Prose text={hint} />}
        value={level}
        choices={[
          { value: '', label: t('common.qualityDefaultChoice') },
          ...levels().map((word) => ({
            value: word,
            label: t(`common.levelName.${LEVEL_KEYS[word] ?? 'auto'}`),
          })),
          { value: 'number', label: t('common.qualityNumberChoice') },
        ]}
        onChange={(quality) => props.onChange({ quality })}
      />
      {level === 'number' && (
        <div class="quality-number">
          <input
            type="range"
            min={range.min}
            max={range.max}
            value={props.settings.qualityNumber}
            aria-label={t('common.qualityNumberChoice')}
            onInput={(event) => props.onChange({ qualityNumber: Number(event.currentTarget.value) })}
          />
          <NumberField
            id="quality-number"
            label={t('common.qualityNumber')}
            value={props.settings.qualityNumber}
            range={range}
            onChange={(value) => value !== undefined && props.onChange({ qualityNumber: value })}
          />
        </div>
      )}
    </>
  )
}
