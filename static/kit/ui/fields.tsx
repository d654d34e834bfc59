import type { ComponentChildren } from 'preact'
import { useLayoutEffect, useRef } from 'preact/hooks'
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
  /** `code`: the label is an identifier (a path, a format): never translated, left to right. */
  choices: readonly {
    value: string
    label: string
    code?: boolean
    hint?: ComponentChildren
    picture?: ComponentChildren
  }[]
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
              <strong translate={choice.code ? false : undefined} dir={choice.code ? 'ltr' : undefined}>
                {choice.label}
              </strong>
              <span class="hint">{choice.hint}</span>
            </span>
          ) : (
            <span translate={choice.code ? false : undefined} dir={choice.code ? 'ltr' : undefined}>
              {choice.label}
            </span>
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
  /** From the option's schema (optionRange, or its facts) or a range the tool names and explains. */
  readonly range?: { readonly min?: number; readonly max?: number }
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
          min={props.range?.min}
          max={props.range?.max}
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
        <code dir="ltr" translate={false}>
          {props.value}
        </code>
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
  const label = (
    <code dir="ltr" translate={false}>
      {props.name}
    </code>
  )
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
        range={facts}
        onChange={(value) => props.onChange(value === undefined ? undefined : String(value))}
      />
    )
  return null
}

/**
 * The bare control for any option, generated from its facts, in which every option can be left
 * unset (the server's default, a distinct choice): a select for values and flags, a number for
 * a range, free text with the words offered for a number-or-word, text for the rest. The
 * caller lays it out and may narrow its range (the chosen format's, from GET /api/formats).
 */
export function OptionInput(props: {
  id: string
  name: string
  facts: OptionFacts
  value: string
  min?: number
  max?: number
  placeholder?: string
  disabled?: boolean
  describedBy?: string
  onChange(value: string): void
}) {
  const { t } = env()
  const { facts } = props
  // Set and removed by hand: Preact leaves placeholder="" behind when the prop goes away.
  const control = useRef<HTMLInputElement>(null)
  const placeholder = props.placeholder ?? (facts.kind === 'text' ? facts.default : undefined)
  useLayoutEffect(() => {
    if (placeholder === undefined) control.current?.removeAttribute('placeholder')
    else control.current?.setAttribute('placeholder', placeholder)
  })
  const common = {
    ref: control,
    id: props.id,
    name: props.name,
    value: props.value,
    disabled: props.disabled,
    'aria-describedby': props.describedBy,
    onInput: (event: Event) => props.onChange((event.currentTarget as HTMLInputElement).value),
  }
  if (facts.kind === 'enum' || facts.kind === 'boolean') {
    const values = facts.kind === 'enum' ? facts.values : ['true', 'false']
    return (
      <select {...common} ref={undefined}>
        <option value="">{t('common.serverDefault')}</option>
        {values.map((value) => (
          <option key={value} value={value} translate={false}>
            {value}
          </option>
        ))}
      </select>
    )
  }
  if (facts.kind === 'integer')
    return (
      <input
        {...common}
        type="number"
        inputMode="numeric"
        step={1}
        min={props.min ?? facts.min}
        max={props.max ?? facts.max}
      />
    )
  const words = facts.kind === 'integer-or-word' ? facts.words : undefined
  return (
    <>
      <input
        {...common}
        type="text"
        dir="ltr"
        spellcheck={false}
        list={words && `${props.id}-words`}
        pattern={facts.kind === 'text' ? facts.pattern : undefined}
        maxLength={facts.kind === 'text' ? facts.maxLength : undefined}
      />
      {words && (
        <datalist id={`${props.id}-words`}>
          {words.map((word) => (
            <option key={word} value={word} />
          ))}
        </datalist>
      )}
    </>
  )
}
