import type { PickedFile } from '../../kit/batch/files.ts'
import { imageSize } from '../../kit/batch/image-size.ts'
import { env } from '../../kit/env.ts'
import { batchTool, type SettingsForm } from '../../kit/ui/BatchTool.tsx'
import { CheckField, Choices, ColourField, NumberField } from '../../kit/ui/fields.tsx'
import { FormatSelect } from '../../kit/ui/FormatSelect.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { FitPicture } from './fit-pictures.tsx'
import { placementOptions, PlacementFields } from './placement.tsx'
import { SizeTargets, type SizeTarget } from './size-targets.tsx'
import { UnmetSize } from './unmet-size.tsx'

export interface ResizeSettings {
  readonly mode: string
  readonly width: number
  readonly height: number
  readonly percent: number
  readonly fit: string
  readonly withoutEnlargement: boolean
  readonly background: string
  readonly format: string
  /** What a crop keeps (cover) or where the image sits (contain). */
  readonly position: string
  /** Pixel density: the width and height are multiplied by it. */
  readonly dpr: number
}

const DEFAULTS: ResizeSettings = {
  mode: 'size',
  width: 1600,
  height: 0,
  percent: 50,
  fit: 'inside',
  withoutEnlargement: true,
  background: '#ffffff',
  format: 'original',
  position: 'centre',
  dpr: 1,
}

/** Scaling by a percentage: from 1% up to four times, the most a pixel ratio (dpr) enlarges. */
const SCALE_PERCENT = { min: 1, max: 400 } as const

const sized = (settings: ResizeSettings) =>
  settings.mode === 'size' && settings.width > 0 && settings.height > 0

function baseQuery(settings: ResizeSettings): URLSearchParams {
  const query = new URLSearchParams()
  if (settings.format !== 'original') query.set('format', settings.format)
  if (settings.fit !== 'inside') query.set('fit', settings.fit)
  if (!settings.withoutEnlargement) query.set('withoutEnlargement', 'false')
  if (settings.fit === 'contain' && settings.background !== '#ffffff')
    query.set('background', settings.background)
  placementOptions(settings, sized(settings), query)
  return query
}

function sizedQuery(settings: ResizeSettings, width?: number, height?: number): URLSearchParams {
  const query = baseQuery(settings)
  if (width) query.set('width', String(width))
  if (height) query.set('height', String(height))
  return query
}

/** With a percent, each file's own size decides its width, so the browser reads it first. */
async function fileQuery(settings: ResizeSettings, picked: PickedFile) {
  if (settings.mode !== 'percent') return sizedQuery(settings, settings.width, settings.height)
  const size = await imageSize(picked.file)
  if (!size) return { code: 'SIZE_UNKNOWN', title: env().t('resize.sizeUnknown') }
  return sizedQuery(settings, Math.max(1, Math.round((size.width * settings.percent) / 100)))
}

const ResizeSettingsForm: SettingsForm<ResizeSettings> = ({ settings, set, facts }) => {
  const { t, data } = env()
  const fit = data.options.fit
  // The same for width and height: from 1 to this server's output limit.
  const dimension = optionRange('width')
  const max = dimension.max
  const choose = (target: SizeTarget) =>
    set({ mode: 'size', width: target.width, height: target.height, fit: 'cover' })
  return (
    <>
      <Choices
        class="segmented"
        legend={t('resize.by')}
        name="mode"
        value={settings.mode}
        choices={['size', 'percent'].map((mode) => ({ value: mode, label: t(`resize.mode.${mode}`) }))}
        onChange={(mode) => set({ mode })}
      />
      {settings.mode === 'size' ? (
        <div class="field-row">
          {(['width', 'height'] as const).map((side) => (
            <NumberField
              key={side}
              id={side}
              label={t(`resize.${side}`)}
              unit="px"
              range={dimension}
              value={settings[side] || undefined}
              onChange={(value) => set({ [side]: value ?? 0 })}
            />
          ))}
        </div>
      ) : (
        <NumberField
          id="percent"
          label={t('resize.percent')}
          unit="%"
          range={SCALE_PERCENT}
          value={settings.percent}
          onChange={(percent) => set({ percent: percent ?? 100 })}
        />
      )}
      <p class="hint">{t('resize.sizeHint', { max })}</p>
      <SizeTargets current={settings} onChoose={choose} />
      <Choices
        class="fits"
        legend={t('resize.fit')}
        name="fit"
        value={settings.fit}
        choices={(fit?.kind === 'enum' ? fit.values : []).map((value) => ({
          value,
          label: t(`resize.fitName.${value}`),
          hint: t(`resize.fitHint.${value}`),
          picture: <FitPicture fit={value} />,
        }))}
        onChange={(value) => set({ fit: value })}
      />
      {settings.fit === 'contain' && (
        <ColourField
          id="background"
          label={t('resize.background')}
          value={settings.background}
          onChange={(background) => set({ background })}
        />
      )}
      <CheckField
        id="without-enlargement"
        label={t('resize.withoutEnlargement')}
        hint={t('resize.withoutEnlargementHint')}
        checked={settings.withoutEnlargement}
        onChange={(withoutEnlargement) => set({ withoutEnlargement })}
      />
      <PlacementFields settings={settings} sized={sized(settings)} set={set} />
      <FormatSelect
        facts={facts}
        words={['original']}
        value={settings.format}
        onChange={(format) => set({ format })}
      />
    </>
  )
}

export const ResizeTool = batchTool({
  tool: 'resize',
  defaults: DEFAULTS,
  commonQuery: (s) => (s.mode === 'percent' ? baseQuery(s) : sizedQuery(s, s.width, s.height)),
  queryOf: fileQuery,
  resultNote: (job, batch) => <UnmetSize job={job} batch={batch} />,
  Form: ResizeSettingsForm,
})
