import { env } from '../../kit/env.ts'
import { CheckField } from '../../kit/ui/fields.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { Slider } from '../../kit/ui/Slider.tsx'
import type { EditSettings } from './settings.ts'

type Adjustable = 'brightness' | 'saturation' | 'hue' | 'contrast' | 'sharpen' | 'blur'

interface SliderSpec {
  readonly step: number
  /** Sharpen and blur start at "off", below the smallest value that changes a pixel. */
  readonly off?: boolean
  readonly text: 'percent' | 'degrees' | 'signed' | 'sigma'
}

const SLIDERS: Readonly<Record<Adjustable, SliderSpec>> = {
  brightness: { step: 0.05, text: 'percent' },
  saturation: { step: 0.05, text: 'percent' },
  hue: { step: 1, text: 'degrees' },
  contrast: { step: 1, text: 'signed' },
  sharpen: { step: 0.1, off: true, text: 'sigma' },
  blur: { step: 0.1, off: true, text: 'sigma' },
}

/** Off: what a slider that starts at "off" sends nothing for. */
const OFF = 0

/** The adjustments as sliders, in the order the API applies them, each back to neutral in one press. */
export function Adjustments(props: { settings: EditSettings; set(next: Partial<EditSettings>): void }) {
  const { t, numbers } = env()
  const words = (spec: SliderSpec, value: number) => {
    if (spec.off && value === 0) return t('edit.off')
    if (spec.text === 'percent') return numbers.percent(value)
    if (spec.text === 'degrees') return t('edit.degrees', { value })
    if (spec.text === 'sigma') return t('edit.pixels', { value })
    return value > 0 ? `+${numbers.integer(value)}` : numbers.integer(value)
  }
  return (
    <fieldset class="adjustments">
      <legend>{t('edit.adjust')}</legend>
      {(Object.keys(SLIDERS) as Adjustable[]).map((name) => {
        const spec = SLIDERS[name]
        // Neutral is the API's default (brightness 1, hue 0…); sharpen and blur have none: off.
        const { min, max, default: neutral = OFF } = optionRange(name)
        return (
          <Slider
            key={name}
            id={`adjust-${name}`}
            label={t(`edit.adjustName.${name}`)}
            value={props.settings[name]}
            range={{ min: spec.off ? OFF : min, max }}
            step={spec.step}
            neutral={neutral}
            text={(value) => words(spec, value)}
            // Between off and the smallest value that does anything, the slider jumps to the latter.
            onChange={(value) => props.set({ [name]: spec.off && value > 0 ? Math.max(min, value) : value })}
          />
        )
      })}
      {(['greyscale', 'normalise'] as const).map((name) => (
        <CheckField
          key={name}
          id={`adjust-${name}`}
          label={t(`edit.adjustName.${name}`)}
          hint={t(`edit.adjustHint.${name}`)}
          checked={props.settings[name]}
          onChange={(checked) => props.set({ [name]: checked })}
        />
      ))}
    </fieldset>
  )
}
