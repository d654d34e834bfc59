import { env } from '../env.ts'
import { CheckField, ColourField, NumberField } from '../ui/fields.tsx'
import { Slider } from '../ui/Slider.tsx'
import type { EditSettings } from './settings.ts'

/** The padding's sides in the API's order; named by the picture's sides, which never mirror. */
const SIDES = ['top', 'right', 'bottom', 'left'] as const

/** A border removed (trim) or added (pad), rounded corners, and the colour they and turns show. */
export function Borders(props: { settings: EditSettings; set(next: Partial<EditSettings>): void }) {
  const { t, numbers } = env()
  const { settings, set } = props
  return (
    <fieldset class="borders">
      <legend>{t('edit.borders')}</legend>
      <CheckField
        id="trim"
        label={t('edit.trim')}
        hint={t('edit.trimHint')}
        checked={settings.trim >= 0}
        onChange={(on) => set({ trim: on ? 10 : -1 })}
      />
      {settings.trim >= 0 && (
        <Slider
          id="trim-threshold"
          label={t('edit.trimThreshold')}
          value={settings.trim}
          min={0}
          max={255}
          step={1}
          neutral={10}
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
              min={0}
              max={99999}
              value={settings.pad[i]}
              onChange={(value) => {
                const pad = [...settings.pad] as [number, number, number, number]
                pad[i] = Math.max(0, Math.round(value ?? 0))
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
        min={0}
        max={10000}
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
