import { formatName } from '../../kit/api/format-name.ts'
import type { ServerFormat } from '../../kit/api/server.ts'
import { env } from '../../kit/env.ts'
import { rotation, type EditSettings } from './settings.ts'

/**
 * What each chosen operation does to the frames of an animation, as the API treats them
 * (src/image/steps/README.md, "Animations"): only the operations in use are listed, then
 * whether the output keeps the frames at all.
 */
function operationsOf(s: EditSettings, watermark: boolean): string[] {
  const adjusted = s.brightness !== 1 || s.saturation !== 1 || s.hue !== 0 || s.contrast !== 0 || s.greyscale
  return [
    s.crop && 'crop',
    s.trim >= 0 && 'trim',
    (rotation(s) !== 0 || s.flip || s.flop) && 'turn',
    s.pad.some((side) => side > 0) && 'pad',
    adjusted && 'adjust',
    (s.blur > 0 || s.sharpen > 0) && 'blurSharpen',
    s.normalise && 'normalise',
    watermark && 'watermark',
    s.radius > 0 && 'radius',
  ].filter((name): name is string => Boolean(name))
}

export function AnimationNote(props: {
  frames: number
  settings: EditSettings
  watermark: boolean
  output?: ServerFormat
}) {
  const { t } = env()
  if (props.frames < 2) return null
  const operations = operationsOf(props.settings, props.watermark)
  const output = props.output
  return (
    <div class="notice animation-note">
      <p>
        <strong>{t('edit.frames.intro', { count: props.frames })}</strong>
      </p>
      {output && !output.animated ? (
        <p>{t('edit.frames.firstOnly', { format: formatName(output.id) })}</p>
      ) : (
        <>
          {operations.length === 0 && <p>{t('edit.frames.none')}</p>}
          <ul>
            {operations.map((name) => (
              <li key={name}>{t(`edit.frames.${name}`)}</li>
            ))}
          </ul>
        </>
      )}
    </div>
  )
}
