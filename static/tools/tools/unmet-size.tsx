import type { Batch, Job } from '../../kit/batch/engine.ts'
import { env } from '../../kit/env.ts'
import { optionDefault } from '../../kit/page-data.ts'

/** The fits that promise exactly the size asked for; inside and outside only bound it. */
const EXACT_FITS = new Set(['cover', 'contain', 'fill'])

/** The size a job asked for, in output pixels (the density applied), when its fit promises it. */
function askedSize(query: URLSearchParams): { width: number; height: number } | undefined {
  const { data } = env()
  const fit = query.get('fit') ?? optionDefault(data, 'fit') ?? ''
  const density = Number(query.get('dpr') ?? optionDefault(data, 'dpr'))
  const width = Math.round(Number(query.get('width')) * density)
  const height = Math.round(Number(query.get('height')) * density)
  return EXACT_FITS.has(fit) && width > 0 && height > 0 ? { width, height } : undefined
}

/** Padding (top, right, bottom, left) that gives width × height the shape of `ratio`, centred. */
export function padToShape(width: number, height: number, ratio: number): [number, number, number, number] {
  if (width / height < ratio) {
    const extra = Math.round(height * ratio) - width
    return [0, extra - Math.floor(extra / 2), 0, Math.floor(extra / 2)]
  }
  const extra = Math.round(width / ratio) - height
  return [Math.floor(extra / 2), 0, extra - Math.floor(extra / 2), 0]
}

/**
 * A size the image is too small to meet with Never enlarge on (the API then keeps the image's
 * own size and shape): the card says so and offers the two ways to meet it, enlarging the image
 * or adding bands around it out to the size's shape.
 */
export function UnmetSize({ job, batch }: { job: Job; batch: Batch }) {
  const { t, numbers } = env()
  const asked = askedSize(job.query)
  const result = job.result
  // Bands already added at the reader's request: the shape is met, as they chose.
  if (!asked || !result || job.query.has('pad')) return null
  if (result.width === asked.width && result.height === asked.height) return null
  const size = (width: number, height: number) =>
    t('common.dimensions', { width: numbers.integer(width), height: numbers.integer(height) })
  const pad = padToShape(result.width, result.height, asked.width / asked.height)
  const enlarged = new URLSearchParams(job.query)
  enlarged.set('withoutEnlargement', 'false')
  const padded = new URLSearchParams(job.query)
  padded.set('pad', pad.join(','))
  return (
    <div class="notice unmet-size">
      <p>
        {t('resize.unmet', {
          got: size(result.width, result.height),
          asked: size(asked.width, asked.height),
        })}
      </p>
      <p class="unmet-actions">
        <button type="button" onClick={() => batch.resend(job, enlarged)}>
          {t('resize.enlargeTo', { size: size(asked.width, asked.height) })}
        </button>
        <button type="button" onClick={() => batch.resend(job, padded)}>
          {t('resize.padToShape', {
            size: size(result.width + pad[1] + pad[3], result.height + pad[0] + pad[2]),
          })}
        </button>
      </p>
    </div>
  )
}
