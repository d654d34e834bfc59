import { env } from '../env.ts'

/** "34% smaller" or "12% larger": a larger result says so in words, not only in colour. */
export function changeText(before: number, after: number): string {
  const { t, numbers } = env()
  const ratio = before > 0 ? after / before : 1
  return ratio <= 1
    ? t('common.smaller', { percent: numbers.percent(1 - ratio) })
    : t('common.larger', { percent: numbers.percent(ratio - 1) })
}

export function changeClass(before: number, after: number): string {
  return after <= before ? 'smaller' : 'larger'
}
