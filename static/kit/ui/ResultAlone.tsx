import type { JobResult } from '../batch/engine.ts'
import { env } from '../env.ts'
import { Picture, sideFacts, stageBox, type Side } from './Compare.tsx'
import { CompareFacts, type SideFacts } from './CompareFacts.tsx'
import { usePreview } from './use-preview.ts'

interface Props {
  /** The original as the server described it: its bytes and format, no picture. */
  readonly before: SideFacts
  readonly after: Side
  readonly quality?: string | null
  readonly similarity?: string | null
}

/**
 * A result whose original this page never had: the server fetched it from its address. The
 * result is shown alone, with the server's figures for the original beside it; the page does not
 * fetch the original itself (it would be a request to another origin, which the page's
 * Content-Security-Policy refuses, and a second download the server has already made).
 */
export function ResultAlone({ before, after, quality, similarity }: Props) {
  const { t } = env()
  const picture = usePreview(after.blob)
  const { ratio, fit } = stageBox(after.width || picture.width, after.height || picture.height)
  return (
    <div class="compare compare-alone" dir="ltr">
      <div class="compare-view" tabIndex={0} aria-label={t('common.after')}>
        <div class="compare-stage" style={{ width: fit, aspectRatio: ratio }}>
          <Picture preview={picture} alt={t('common.after')} />
          <span class="compare-label compare-label-after" aria-hidden="true">
            {t('common.after')}
          </span>
        </div>
      </div>
      <p class="hint" dir={document.documentElement.dir as 'ltr' | 'rtl'}>
        {t('common.afterOnly')}
      </p>
      <CompareFacts
        before={before}
        after={sideFacts(after, picture)}
        quality={quality}
        similarity={similarity}
      />
    </div>
  )
}

/** A job's result alone, the original's figures from the server's answer. */
export function JobResultAlone({ result }: { result: JobResult }) {
  return (
    <ResultAlone
      before={{ bytes: result.originalSize, format: result.originalFormat }}
      after={{ blob: result.blob, format: result.format, width: result.width, height: result.height }}
      quality={result.quality}
      similarity={result.similarity}
    />
  )
}
