import { useState } from 'preact/hooks'
import { env } from '../../kit/env.ts'
import { Dimensions } from '../../kit/ui/figures.tsx'

export interface SizeTarget {
  readonly name: string
  readonly width: number
  readonly height: number
}

/** Sizes the social networks ask for; each becomes width × height with fit=cover. */
export const SOCIAL_TARGETS: readonly SizeTarget[] = [
  { name: 'openGraph', width: 1200, height: 630 },
  { name: 'x', width: 1600, height: 900 },
  { name: 'instagramSquare', width: 1080, height: 1080 },
  { name: 'instagramPortrait', width: 1080, height: 1350 },
  { name: 'instagramStory', width: 1080, height: 1920 },
  { name: 'youtube', width: 1280, height: 720 },
  { name: 'linkedin', width: 1200, height: 627 },
]

const STORAGE = 'imgapi-resize-targets'

function loadCustom(): SizeTarget[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE) ?? '[]') as unknown
    return Array.isArray(parsed)
      ? parsed.filter((t): t is SizeTarget => typeof t?.name === 'string' && t.width > 0 && t.height > 0)
      : []
  } catch {
    return []
  }
}

/** Common targets as buttons, and the reader's own, saved in this browser. */
export function SizeTargets({
  current,
  onChoose,
}: {
  current: { width: number; height: number }
  onChoose(target: SizeTarget): void
}) {
  const { t, numbers } = env()
  const [custom, setCustom] = useState(loadCustom)
  const [name, setName] = useState('')
  const store = (next: SizeTarget[]) => {
    localStorage.setItem(STORAGE, JSON.stringify(next))
    setCustom(next)
  }
  const size = (target: SizeTarget) =>
    t('common.dimensions', { width: numbers.integer(target.width), height: numbers.integer(target.height) })
  const button = (target: SizeTarget, label: string) => (
    <button
      type="button"
      class="target"
      aria-pressed={current.width === target.width && current.height === target.height}
      onClick={() => onChoose(target)}
    >
      <span>{label}</span>
      <span class="target-size">
        <Dimensions width={target.width} height={target.height} />
      </span>
    </button>
  )
  return (
    <fieldset class="targets">
      <legend>{t('resize.targets')}</legend>
      <div class="target-list">
        {SOCIAL_TARGETS.map((target) => (
          <span key={target.name}>{button(target, t(`resize.target.${target.name}`))}</span>
        ))}
        {custom.map((target) => (
          <span key={`custom-${target.name}`} class="custom-target">
            {button(target, target.name)}
            <button
              type="button"
              class="preset-delete"
              aria-label={t('common.presetDelete', { name: target.name })}
              onClick={() => store(custom.filter((c) => c !== target))}
            >
              ×
            </button>
          </span>
        ))}
      </div>
      {current.width > 0 && current.height > 0 && (
        <form
          class="preset-save"
          onSubmit={(event) => {
            event.preventDefault()
            if (name.trim())
              store([
                ...custom.filter((c) => c.name !== name.trim()),
                { name: name.trim(), width: current.width, height: current.height },
              ])
            setName('')
          }}
        >
          <label for="target-name">{t('resize.saveTarget', { size: size({ name: '', ...current }) })}</label>
          <input
            id="target-name"
            type="text"
            maxLength={40}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit">{t('common.presetSave')}</button>
        </form>
      )}
    </fieldset>
  )
}
