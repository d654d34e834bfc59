/**
 * Numbers, sizes and durations in the reader's language (Persian digits in fa, and so on):
 * every figure on the docs pages goes through Intl.NumberFormat here, the same way the browser
 * code formats what it measures (static/docs/numbers.ts).
 */
export interface NumberFormats {
  integer(value: number): string
  /** A number with a fraction where it has one, to two places: 0.3, 1, 2.5. */
  decimal(value: number): string
  /** Bytes as the largest binary unit that keeps the figure at least 1: 32 MiB, 1.5 GiB. */
  bytes(value: number): string
  percent(ratio: number): string
  seconds(ms: number): string
  milliseconds(ms: number): string
  /** A score such as an SSIM, to its own precision (0.98, 0.995). */
  score(value: number): string
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const

/**
 * A space between a figure and a unit written in Latin letters or Chinese and Japanese
 * characters, as the glossaries ask ("60 秒", "250 ms"), where Intl runs them together for some
 * languages ("60秒" in zh-Hans, "250ms" in ko). Hangul units stay attached ("60초"), as the
 * Korean glossary asks.
 */
const spaced = (text: string) =>
  text.replace(/(\p{Nd})(?=[\p{Script=Latin}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])/gu, '$1 ')

/**
 * `latin` keeps the language's separators and units but writes 0-9: for figures that sit beside
 * codes and values a caller types, which are Latin in every language, so one row or table
 * never mixes two sets of digits (Persian ۳۲ next to 413).
 */
export function numberFormats(language: string, digits: 'reader' | 'latin' = 'reader'): NumberFormats {
  const format = (options: Intl.NumberFormatOptions) =>
    new Intl.NumberFormat(language, digits === 'latin' ? { ...options, numberingSystem: 'latn' } : options)
  const integer = format({ maximumFractionDigits: 0 })
  const decimal = format({ maximumFractionDigits: 1 })
  const fraction = format({ maximumFractionDigits: 2 })
  const percent = format({ style: 'percent', maximumFractionDigits: 1 })
  const score = format({ minimumFractionDigits: 2, maximumFractionDigits: 4 })
  const seconds = format({ style: 'unit', unit: 'second', maximumFractionDigits: 1 })
  const milliseconds = format({ style: 'unit', unit: 'millisecond', maximumFractionDigits: 0 })
  return {
    integer: (value) => integer.format(value),
    decimal: (value) => fraction.format(value),
    bytes: (value) => {
      let unit = 0
      let scaled = value
      while (scaled >= 1024 && unit < UNITS.length - 1) {
        scaled /= 1024
        unit++
      }
      return `${(unit === 0 ? integer : decimal).format(scaled)} ${UNITS[unit]}`
    },
    percent: (ratio) => percent.format(ratio),
    seconds: (ms) => spaced(seconds.format(ms / 1000)),
    milliseconds: (ms) => spaced(milliseconds.format(ms)),
    score: (value) => score.format(value),
  }
}
