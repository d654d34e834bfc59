import type { ComponentChildren } from 'preact'
import type { OptionFacts } from '../../../src/tools/options.ts'
import { env } from '../env.ts'

/**
 * Form controls, each with a visible label and an optional hint tied to it. `OptionControl`
 * builds one from an option's facts in the page (the server's option schema): its kind, range,
 * values and default.
 */
interface FieldProps {
  readonly id: string
  readonly label: ComponentChildren
  readonly hint?: ComponentChildren
  readonly children: ComponentChildren
}

/** A control's hint, which the control names with aria-describedby. */
function Hint({ id, hint }: { id: string; hint?: ComponentChildren }) {
  return hint ? (
    <p class="hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null
}

export function Field({ id, label, hint, children }: FieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      <Hint id={id} hint={hint} />
    </div>
  )
}

/** One line of text (or a few, `rows`), in the direction its content needs. */
export function TextField(props: {
  id: string
  label: string
  hint?: ComponentChildren
  value: string
  rows?: number
  maxLength?: number
  dir?: 'ltr' | 'auto'
  onChange(value: string): void
}) {
  const common = {
    id: props.id,
    dir: props.dir ?? 'auto',
    value: props.value,
    maxLength: props.maxLength,
    'aria-describedby': props.hint ? `${props.id}-hint` : undefined,
    onInput: (event: Event) => props.onChange((event.currentTarget as HTMLInputElement).value),
  }
  return (
    <Field id={props.id} label={props.label} hint={props.hint}>
      {props.rows ? <textarea rows={props.rows} {...common} /> : <input type="text" {...common} />}
    </Field>
  )
}

/** A set of radio buttons, each a labelled card, optionally with a picture and a hint. */
export function Choices(props: {
  legend: string
  name: string
  value: string
  choices: readonly { value: string; label: string; hint?: string; picture?: ComponentChildren }[]
  class?: string
  onChange(value: string): void
}) {
  return (
    <fieldset class={`choices ${props.class ?? ''}`}>
      <legend>{props.legend}</legend>
      {props.choices.map((choice) => (
        <label key={choice.value} class="choice">
          <input
            type="radio"
            name={props.name}
            value={choice.value}
            checked={props.value === choice.value}
            onChange={() => props.onChange(choice.value)}
          />
          {choice.picture}
          {choice.hint ? (
            <span>
              <strong>{choice.label}</strong>
              <span class="hint">{choice.hint}</span>
            </span>
          ) : (
            <span>{choice.label}</span>
          )}
        </label>
      ))}
    </fieldset>
  )
}

/** Where a tool says what happened, for readers who cannot see the list (aria-live). */
export function Live({ text }: { text: string }) {
  return (
    <div class="visually-hidden" role="status" aria-live="polite">
      {text}
    </div>
  )
}

interface NumberProps {
  readonly id: string
  readonly label: ComponentChildren
  readonly hint?: ComponentChildren
  readonly value: number | undefined
  readonly min?: number
  readonly max?: number
  readonly step?: number | 'any'
  readonly placeholder?: string
  readonly unit?: string
  onChange(value: number | undefined): void
}

export function NumberField(props: NumberProps) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint}>
      <span class="with-unit">
        <input
          id={props.id}
          type="number"
          inputMode="numeric"
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          placeholder={props.placeholder}
          value={props.value ?? ''}
          aria-describedby={props.hint ? `${props.id}-hint` : undefined}
          onInput={(event) => {
            const text = event.currentTarget.value
            props.onChange(text === '' || !Number.isFinite(Number(text)) ? undefined : Number(text))
          }}
        />
        {props.unit && <span class="unit">{props.unit}</span>}
      </span>
    </Field>
  )
}

interface Choice {
  readonly value: string
  readonly label: string
  /** Identifiers (format names) are not translated. */
  readonly code?: boolean
}

export function SelectField(props: {
  id: string
  label: ComponentChildren
  hint?: ComponentChildren
  value: string
  choices: readonly Choice[]
  onChange(value: string): void
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint}>
      <select
        id={props.id}
        value={props.value}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        {props.choices.map((choice) => (
          <option key={choice.value} value={choice.value} translate={choice.code ? false : undefined}>
            {choice.label}
          </option>
        ))}
      </select>
    </Field>
  )
}

export function CheckField(props: {
  id: string
  label: ComponentChildren
  hint?: ComponentChildren
  checked: boolean
  disabled?: boolean
  onChange(checked: boolean): void
}) {
  return (
    <div class="field check">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        disabled={props.disabled}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <label for={props.id}>{props.label}</label>
      <Hint id={props.id} hint={props.hint} />
    </div>
  )
}

export function ColourField(props: {
  id: string
  label: string
  hint?: ComponentChildren
  value: string
  onChange(value: string): void
}) {
  return (
    <Field id={props.id} label={props.label} hint={props.hint}>
      <span class="colour">
        <input
          id={props.id}
          type="color"
          value={props.value}
          onInput={(event) => props.onChange(event.currentTarget.value)}
        />
        <code translate={false}>{props.value}</code>
      </span>
    </Field>
  )
}

/**
 * A control for an option the page knows only from its facts (an option the API gained after
 * this tool was written): a select for values, a checkbox for a flag, a number for a range.
 */
export function OptionControl(props: {
  name: string
  facts: OptionFacts
  value: string | undefined
  onChange(value: string | undefined): void
}) {
  const { t } = env()
  const id = `option-${props.name}`
  const { facts } = props
  // The option's own name, an identifier the reader types in the API: never translated.
  const label = <code translate={false}>{props.name}</code>
  if (facts.kind === 'enum')
    return (
      <SelectField
        id={id}
        label={label}
        value={props.value ?? String(facts.default ?? '')}
        choices={[
          ...(facts.default === undefined ? [{ value: '', label: t('common.serverDefault') }] : []),
          ...facts.values.map((value) => ({ value, label: value, code: true })),
        ]}
        onChange={(value) => props.onChange(value || undefined)}
      />
    )
  if (facts.kind === 'boolean')
    return (
      <CheckField
        id={id}
        label={label}
        checked={(props.value ?? String(facts.default ?? false)) === 'true'}
        onChange={(checked) => props.onChange(String(checked))}
      />
    )
  if (facts.kind === 'integer' || facts.kind === 'number')
    return (
      <NumberField
        id={id}
        label={label}
        step={facts.kind === 'number' ? 'any' : 1}
        value={props.value === undefined ? undefined : Number(props.value)}
        min={facts.min}
        max={facts.max}
        onChange={(value) => props.onChange(value === undefined ? undefined : String(value))}
      />
    )
  return null
}
