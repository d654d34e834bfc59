import { env } from '../../kit/env.ts'
import { Choices } from '../../kit/ui/fields.tsx'
import { Slider } from '../../kit/ui/Slider.tsx'
import { fitRatio, toOriginal, viewSize, type Size } from './geometry.ts'
import { RATIOS, ratioOf, type EditSettings } from './settings.ts'

/** Turn arrows, drawn the same in every language: turning left is always anticlockwise. */
/**
 * The fine angle on top of the quarter turns: past 45 degrees a quarter turn the other way is
 * nearer, so the slider need not reach the API's whole -360 to 360.
 */
const STRAIGHTEN = { min: -45, max: 45, step: 0.5, neutral: 0 } as const

const ARROWS = {
  left: 'M2 4v6h6M3.5 15a9 9 0 1 0 2.1-9.4L2 10',
  right: 'M22 4v6h-6M20.5 15a9 9 0 1 1-2.1-9.4L22 10',
  flip: 'M3 12h18M12 3v6M9 6l3-3 3 3M12 21v-6M9 18l3 3 3-3',
  flop: 'M12 3v18M3 12h6M6 9l-3 3 3 3M21 12h-6M18 9l3 3-3 3',
}

function Icon({ path }: { path: string }) {
  return (
    <svg class="edit-icon" viewBox="0 0 24 24" aria-hidden="true">
      <path d={path} />
    </svg>
  )
}

/**
 * The crop's ratio and the turns: a quarter turn left or right, a mirror either way, and a fine
 * angle. A chosen ratio is applied again after a quarter turn, so the box keeps it as shown.
 */
export function CropTools(props: {
  settings: EditSettings
  size: Size
  set(next: Partial<EditSettings>): void
}) {
  const { t } = env()
  const { settings, size } = props
  const refit = (next: Partial<EditSettings>) => {
    const merged = { ...settings, ...next }
    const ratio = ratioOf(merged.ratio)
    if (!ratio) return props.set(next)
    const turned = { turns: merged.turns, flip: merged.flip, flop: merged.flop }
    props.set({ ...next, crop: toOriginal(fitRatio(viewSize(size, turned), ratio), size, turned) })
  }
  const turn = (by: number) => refit({ turns: (settings.turns + by + 4) % 4 })
  const toggle = (name: 'flip' | 'flop', path: string) => (
    <button
      type="button"
      aria-pressed={settings[name]}
      onClick={() => props.set({ [name]: !settings[name] })}
    >
      <Icon path={path} />
      {t(`edit.${name}`)}
    </button>
  )
  return (
    <div class="crop-tools">
      <Choices
        class="segmented ratios"
        legend={t('edit.ratio')}
        name="ratio"
        value={settings.ratio}
        choices={RATIOS.map((ratio) => ({
          value: ratio,
          label: ratio === 'free' ? t('edit.ratioFree') : ratio,
        }))}
        onChange={(ratio) => (ratioOf(ratio) ? refit({ ratio }) : props.set({ ratio }))}
      />
      <div class="button-group turn-buttons" role="group" aria-label={t('edit.turn')}>
        <button type="button" onClick={() => turn(-1)}>
          <Icon path={ARROWS.left} />
          {t('edit.rotateLeft')}
        </button>
        <button type="button" onClick={() => turn(1)}>
          <Icon path={ARROWS.right} />
          {t('edit.rotateRight')}
        </button>
        {toggle('flip', ARROWS.flip)}
        {toggle('flop', ARROWS.flop)}
      </div>
      <Slider
        id="edit-angle"
        label={t('edit.angle')}
        value={settings.angle}
        range={STRAIGHTEN}
        step={STRAIGHTEN.step}
        neutral={STRAIGHTEN.neutral}
        dir="ltr"
        text={(value) => t('edit.degrees', { value })}
        onChange={(angle) => props.set({ angle })}
      />
      <p class="hint">{t('edit.angleHint')}</p>
    </div>
  )
}
