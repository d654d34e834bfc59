import { env } from '../../kit/env.ts'
import { CheckField, ColourField, NumberField } from '../../kit/ui/fields.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { Slider } from '../../kit/ui/Slider.tsx'
import type { EditSettings } from './settings.ts'

/** The padding's sides in the API's order; named by the picture's sides, which never mirror. */
const SIDES = ['top', 'right', 'bottom', 'left'] as const

/**
 * Where trimming starts when it is turned on: sharp's own threshold, which the API's trim has no
 * default for (without it nothing is trimmed).
 */
const TRIM_START = 10

/** Padding a side takes: the API's pad is four numbers of up to five digits. */
const PAD_SIDE = { min: 0, max: 99_999 }

/** A border removed (trim) or added (pad), rounded corners, and the colour they and turns show. */
export function Borders(props: { settings: EditSettings; set(next: Partial<EditSettings>): void }) {
  const { t, numbers } = env()
  const { settings, set } = props
  const trim = optionRange('trim')
  const radius = optionRange('radius')
  return (
    <fieldset class="borders">
      <legend>{t('edit.borders')}</legend>
      <CheckField
        id="trim"
        label={t('edit.trim')}
        hint={t('edit.trimHint')}
        checked={settings.trim >= 0}
        onChange={(on) => set({ trim: on ? TRIM_START : -1 })}
      />
      {settings.trim >= 0 && (
        <Slider
          id="trim-threshold"
          label={t('edit.trimThreshold')}
          value={settings.trim}
          range={trim}
          step={1}
          neutral={TRIM_START}
          text={(value) => numbers.integer(value)}
          onChange={(trim) => set({ trim })}
        />
      )}
      <fieldset class="pad">
        <legend>{t('edit.pad')}</legend>
        <div class="pad-sides">
          {SIDES.map((side, i) => (
            <NumberField
              key={side}
              id={`pad-${side}`}
              label={t(`edit.side.${side}`)}
              unit="px"
              range={PAD_SIDE}
              value={settings.pad[i]}
              onChange={(value) => {
                const pad = [...settings.pad] as [number, number, number, number]
                pad[i] = Math.max(PAD_SIDE.min, Math.round(value ?? 0))
                set({ pad })
              }}
            />
          ))}
        </div>
      </fieldset>
      <NumberField
        id="radius"
        label={t('edit.radius')}
        hint={t('edit.radiusHint')}
        unit="px"
        range={radius}
        value={settings.radius || undefined}
        placeholder={t('edit.none')}
        onChange={(value) => set({ radius: Math.max(0, Math.round(value ?? 0)) })}
      />
      <ColourField
        id="edit-background"
        label={t('edit.background')}
        hint={t('edit.backgroundHint')}
        value={settings.background}
        onChange={(background) => set({ background })}
      />
    </fieldset>
  )
}
