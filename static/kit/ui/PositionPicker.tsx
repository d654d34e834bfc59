import { env } from '../env.ts'

/** The nine points of a box in reading order of the picture: its top row first, left to right. */
const GRID = [
  'top-left',
  'top',
  'top-right',
  'left',
  'centre',
  'right',
  'bottom-left',
  'bottom',
  'bottom-right',
] as const

/**
 * Where an image sits or what a crop keeps: a 3 × 3 grid of radio buttons (arrow keys move
 * between them, as in any radio group), and, where the option allows them, the smart choices
 * the schema lists besides the nine points (attention, entropy). The grid is the picture's, so
 * it never mirrors: top-left is the picture's top-left in every language.
 */
export function PositionPicker(props: {
  name: string
  legend: string
  hint?: string
  value: string
  /** The values the option takes, from its schema; those beyond the nine points are smart ones. */
  values: readonly string[]
  /** Offer the smart choices (they only work when the image is cropped to fill). */
  smart?: boolean
  onChange(value: string): void
}) {
  const { t } = env()
  const grid = GRID.filter((value) => props.values.includes(value))
  const smart = props.smart
    ? props.values.filter((value) => !(GRID as readonly string[]).includes(value))
    : []
  const input = (value: string) => (
    <input
      type="radio"
      name={props.name}
      value={value}
      checked={props.value === value}
      onChange={() => props.onChange(value)}
    />
  )
  return (
    <fieldset class="position-picker" aria-describedby={props.hint ? `${props.name}-hint` : undefined}>
      <legend>{props.legend}</legend>
      <div class="position-body">
        <div class="position-grid" dir="ltr">
          {grid.map((value) => (
            <label key={value} class="position-cell">
              {input(value)}
              <span class="visually-hidden">{t(`common.position.${value}`)}</span>
            </label>
          ))}
        </div>
        <p class="position-chosen" aria-hidden="true">
          {t(`common.position.${props.value}`)}
        </p>
      </div>
      {smart.map((value) => (
        <label key={value} class="choice">
          {input(value)}
          <span>
            <strong>{t(`common.position.${value}`)}</strong>
            <span class="hint">{t(`common.positionHint.${value}`)}</span>
          </span>
        </label>
      ))}
      {props.hint && (
        <p class="hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      )}
    </fieldset>
  )
}
