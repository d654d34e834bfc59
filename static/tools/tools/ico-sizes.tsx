import { env } from '../../kit/env.ts'
import { Dimensions } from '../../kit/ui/figures.tsx'

/** The sizes icons are usually made in; the API takes any from 1 to 256. */
const SIZES = [16, 24, 32, 48, 64, 128, 256]

/** The sizes an ICO holds by default, from the option's schema (16, 32 and 48). */
export function defaultIcoSizes(): string {
  const facts = env().data.options.icoSizes
  return (facts?.kind === 'text' && facts.default) || '16,32,48'
}

const parse = (list: string) =>
  list
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0)

/** Which square images the icon holds: one chip each, at least one chosen. */
export function IcoSizes({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = env()
  const chosen = parse(value)
  const toggle = (size: number, on: boolean) => {
    const next = on ? [...new Set([...chosen, size])] : chosen.filter((s) => s !== size)
    if (next.length > 0) onChange(next.sort((a, b) => a - b).join(','))
  }
  return (
    <fieldset class="choices chips">
      <legend>{t('convert.icoSizes')}</legend>
      {[...new Set([...SIZES, ...chosen])]
        .sort((a, b) => a - b)
        .map((size) => (
          <label key={size} class="chip">
            <input
              type="checkbox"
              checked={chosen.includes(size)}
              onChange={(event) => toggle(size, event.currentTarget.checked)}
            />
            <span>
              <Dimensions width={size} height={size} />
            </span>
          </label>
        ))}
      <p class="hint">{t('convert.icoHint')}</p>
    </fieldset>
  )
}
