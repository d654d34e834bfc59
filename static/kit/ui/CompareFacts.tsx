import { formatName } from '../api/format-name.ts'
import { env } from '../env.ts'
import { changeClass, changeText } from './change.ts'

/** One side as the facts under a picture name it: its bytes and format, its size when known. */
export interface SideFacts {
  readonly bytes: number
  readonly format: string
  readonly width?: number
  readonly height?: number
  /** What is shown is the server's conversion: the browser cannot show this format. */
  readonly converted?: boolean
}

interface Props {
  readonly before: SideFacts
  readonly after: SideFacts
  readonly quality?: string | null
  readonly similarity?: string | null
}

/** Before and after in figures: bytes, format and size of each, the change, quality and similarity. */
export function CompareFacts({ before, after, quality, similarity }: Props) {
  const { t, numbers } = env()
  const dimensions = ({ width, height }: SideFacts) =>
    width && height
      ? t('common.dimensions', { width: numbers.integer(width), height: numbers.integer(height) })
      : ''
  const line = (label: string, side: SideFacts) => (
    <>
      <dt>{label}</dt>
      <dd>
        {/* Each figure isolated: in a right-to-left line they keep their order and their digits' sides. */}
        <bdi>{numbers.bytes(side.bytes)}</bdi> <bdi translate={false}>{formatName(side.format)}</bdi>{' '}
        <bdi>{dimensions(side)}</bdi>
        {side.converted && (
          <span class="note"> {t('common.converted', { format: formatName(side.format) })}</span>
        )}
      </dd>
    </>
  )
  const ssim = similarity ? Number(/ssim=([\d.]+)/.exec(similarity)?.[1]) : NaN
  return (
    <dl class="compare-facts" dir={document.documentElement.dir as 'ltr' | 'rtl'}>
      {line(t('common.before'), before)}
      {line(t('common.after'), after)}
      <dt>{t('common.change')}</dt>
      <dd class={changeClass(before.bytes, after.bytes)}>{changeText(before.bytes, after.bytes)}</dd>
      {quality && (
        <>
          <dt>{t('common.quality')}</dt>
          <dd>{numbers.integer(Number(quality))}</dd>
        </>
      )}
      {Number.isFinite(ssim) && (
        <>
          <dt>{t('common.similarity')}</dt>
          <dd>{t('common.similarityValue', { score: numbers.score(ssim) })}</dd>
        </>
      )}
    </dl>
  )
}
