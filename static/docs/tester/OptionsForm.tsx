import { useState } from 'preact/hooks'
import { numberFormats } from '../../../src/docs/numbers.ts'
import type { ServerFormat } from '../../kit/api/server.ts'
import { env } from '../../kit/env.ts'
import { OptionInput } from '../../kit/ui/fields.tsx'
import { Prose } from '../../kit/ui/Prose.tsx'
import { optionOrder } from './endpoints.ts'
import { findFormat, narrow } from './formats.ts'

export type OptionValues = Readonly<Record<string, string>>

interface Props {
  readonly values: OptionValues
  /** This server's formats (GET /api/formats): each option narrowed to the chosen one. */
  readonly formats: readonly ServerFormat[]
  onChange(name: string, value: string): void
}

/**
 * A control for every option of the schema, generated from the facts the page carries: the
 * ones most requests set first, the rest in a disclosure, each explained on demand.
 */
export function OptionsForm({ values, formats, onChange }: Props) {
  const { t, data } = env()
  const { first, more } = optionOrder(Object.keys(data.options))
  const field = (name: string) => (
    <OptionField key={name} name={name} values={values} formats={formats} onChange={onChange} />
  )
  return (
    <fieldset class="options">
      <legend>{t('site.tester.options')}</legend>
      <div class="option-grid">{first.map(field)}</div>
      <details class="more-options">
        <summary>{t('site.tester.moreOptions', { count: more.length })}</summary>
        <div class="option-grid">{more.map(field)}</div>
      </details>
    </fieldset>
  )
}

/** Only the options that apply to the chosen output are sent: the others are shown disabled. */
export function sentOptions(values: OptionValues, formats: readonly ServerFormat[]): [string, string][] {
  const { source, first, more } = optionOrder(Object.keys(env().data.options))
  return [...source, ...first, ...more]
    .filter((name) => (values[name] ?? '').trim() !== '')
    .filter((name) => narrow(formats, values.format ?? '', name).applies)
    .map((name) => [name, values[name]!.trim()])
}

/** One option's control, its range on this server and its description on demand. */
export function OptionField({ name, values, formats, onChange }: { name: string } & Props) {
  const { t, data } = env()
  const [open, setOpen] = useState(false)
  const facts = data.options[name]!
  const id = `option-${name}`
  const narrowed = narrow(formats, values.format ?? '', name)
  const numbers = numberFormats(data.language)
  const range = !narrowed.applies
    ? t('site.tester.notForFormat', { format: findFormat(formats, values.format!)!.id })
    : narrowed.min !== undefined && narrowed.max !== undefined
      ? t('site.tester.rangeHint', {
          min: numbers.integer(narrowed.min),
          max: numbers.integer(narrowed.max),
          default: numbers.integer(narrowed.default ?? NaN),
        })
      : ''
  return (
    <div class={`field option${narrowed.applies ? '' : ' not-applicable'}`} data-option={name}>
      <div class="option-head">
        <label for={id}>
          <code translate={false}>{name}</code>
        </label>
        <button
          type="button"
          class="about-toggle"
          aria-expanded={open}
          aria-controls={`${id}-about`}
          aria-label={t('site.tester.about', { name })}
          title={t('site.tester.about', { name })}
          onClick={() => setOpen(!open)}
        >
          ?
        </button>
      </div>
      <OptionInput
        id={id}
        name={name}
        facts={facts}
        value={values[name] ?? ''}
        min={narrowed.min}
        max={narrowed.max}
        placeholder={narrowed.default === undefined ? undefined : String(narrowed.default)}
        disabled={!narrowed.applies}
        describedBy={`${id}-range${open ? ` ${id}-about` : ''}`}
        onChange={(value) => onChange(name, value)}
      />
      <p class="range" id={`${id}-range`} data-range>
        {range}
      </p>
      <p class="hint about" id={`${id}-about`} hidden={!open}>
        <Prose text={t(`site.tester.option.${name}`)} />
      </p>
    </div>
  )
}
