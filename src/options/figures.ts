import { JPEG_TRELLIS } from '../formats/format-table.ts'

/*
 * Measured figures that option descriptions quote, as {{placeholders}}: the locales hold the
 * words, the code holds the numbers, so no translation can state an outdated figure. Each
 * caller formats them for its reader (the docs in the reader's digits, OpenAPI in English).
 */
export interface FigureFormats {
  percent(ratio: number): string
  integer(value: number): string
}

export function optionFigures(numbers: FigureFormats): Record<string, string> {
  return {
    trellisSaving: numbers.percent(JPEG_TRELLIS.bytesSaved),
    trellisTimes: numbers.integer(JPEG_TRELLIS.encoderTimes),
  }
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 })
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 })

/** The same figures for the English text of the OpenAPI document. */
export const ENGLISH_FIGURES = optionFigures({
  percent: (ratio) => percent.format(ratio),
  integer: (value) => integer.format(value),
})
