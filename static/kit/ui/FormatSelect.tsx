import type { ComponentChildren } from 'preact'
import { formatName } from '../api/format-name.ts'
import { outputFormats, type ServerFacts } from '../api/server.ts'
import { env } from '../env.ts'
import { SelectField } from './fields.tsx'

/**
 * The output-format select every tool that writes one image shows (Compress, Resize, Edit): the
 * words first (`original`: keep each file's; `auto`: the smallest the browser shows), then the
 * formats this server writes, by their names, which are never translated.
 */
export function FormatSelect(props: {
  facts: ServerFacts
  value: string
  /** The choices before the formats, each a word of `common.format.*`. */
  words: readonly string[]
  hint?: ComponentChildren
  onChange(format: string): void
}) {
  const { t } = env()
  const choices = [
    ...props.words.map((value) => ({ value, label: t(`common.format.${value}`) })),
    ...outputFormats(props.facts).map((format) => ({
      value: format.id,
      label: formatName(format.id),
      code: true,
    })),
  ]
  return (
    <SelectField
      id="format"
      label={t('common.outputFormat')}
      hint={props.hint}
      value={props.value}
      choices={choices}
      onChange={props.onChange}
    />
  )
}
