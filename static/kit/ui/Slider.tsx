import { env } from '../env.ts'

/**
 * A labelled range with its value written beside it and a way back to the neutral value. The
 * range is a native input, so arrow keys, Page Up/Down, Home and End work; `text` says the value
 * in words for screen readers and on screen (a percentage, "off", degrees).
 */
export function Slider(props: {
  id: string
  label: string
  value: number
  /** From the option's schema (optionRange) or a range the tool names and explains. */
  range: { readonly min: number; readonly max: number }
  step: number
  /** The value that changes nothing; the reset button returns to it. */
  neutral: number
  text(value: number): string
  /** For a turn of the picture: its range runs left to right in every language, as the picture turns. */
  dir?: 'ltr'
  onChange(value: number): void
}) {
  const { t } = env()
  const changed = props.value !== props.neutral
  return (
    <div class={`field slider${changed ? ' changed' : ''}`}>
      <div class="slider-head">
        <label for={props.id}>{props.label}</label>
        <output for={props.id} class="slider-value">
          {props.text(props.value)}
        </output>
      </div>
      <div class="slider-body">
        <input
          id={props.id}
          type="range"
          dir={props.dir}
          min={props.range.min}
          max={props.range.max}
          step={props.step}
          value={props.value}
          aria-valuetext={props.text(props.value)}
          onInput={(event) => props.onChange(Number(event.currentTarget.value))}
        />
        <button
          type="button"
          class="slider-reset"
          disabled={!changed}
          aria-label={t('common.resetOne', { name: props.label })}
          onClick={() => props.onChange(props.neutral)}
        >
          ↺
        </button>
      </div>
    </div>
  )
}
