import { env } from '../env.ts'

/*
 * Figures the tools show on their own (a size, a width × height, a size before and after), each
 * an isolate (<bdi>): in a right-to-left line its number and unit stay together and in order,
 * and an arrow or a word beside it cannot slip between them.
 */
export function Size({ bytes }: { bytes: number }) {
  return <bdi>{env().numbers.bytes(bytes)}</bdi>
}

export function Dimensions({ width, height }: { width: number; height: number }) {
  const { t, numbers } = env()
  return (
    <bdi>{t('common.dimensions', { width: numbers.integer(width), height: numbers.integer(height) })}</bdi>
  )
}

/** "before → after", the arrow pointing the way the reader reads. */
export function FromTo({ before, after }: { before: number; after: number }) {
  const arrow = document.documentElement.dir === 'rtl' ? '←' : '→'
  return (
    <>
      <Size bytes={before} /> {arrow} <Size bytes={after} />
    </>
  )
}
