import type { Batch } from '../../kit/batch/engine.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { saveBlob } from '../../kit/batch/zip.ts'
import { env } from '../../kit/env.ts'
import { CompareResult } from '../../kit/ui/Compare.tsx'
import { Jobs } from '../../kit/ui/Jobs.tsx'
import { ProblemText } from '../../kit/ui/ProblemText.tsx'
import type { EditPreview } from './use-edit-preview.ts'

/**
 * The server's preview at screen size, then the full-size result: made on request, listed with
 * its download and curl command, and compared with the original. A text watermark can be saved
 * as the PNG the curl command sends.
 */
export function EditResult(props: {
  preview: EditPreview
  batch: Batch
  image?: PickedFile
  overlay?: Blob
  ready: boolean
  missingOverlay: boolean
  onMake(): void
}) {
  const { t, numbers } = env()
  const { preview, batch } = props
  const job = batch.jobs[0]
  return (
    <>
      <h2 id="preview-title">{t('edit.previewTitle')}</h2>
      <figure
        class={`edit-preview${preview.working ? ' working' : ''}`}
        aria-labelledby="preview-title"
        aria-busy={preview.working}
      >
        {preview.url ? (
          <img src={preview.url} alt={t('edit.previewAlt')} />
        ) : (
          <div class="edit-preview-empty">{!preview.problem && t('edit.previewWaiting')}</div>
        )}
      </figure>
      <p class="hint preview-status" role="status">
        {preview.working
          ? t('edit.previewWorking')
          : preview.width && preview.height
            ? t('edit.previewSize', {
                size: t('common.dimensions', {
                  width: numbers.integer(preview.width),
                  height: numbers.integer(preview.height),
                }),
              })
            : ''}
      </p>
      {preview.problem && <ProblemText problem={preview.problem} />}
      {props.missingOverlay && <p class="notice">{t('edit.overlayMissing')}</p>}
      <p class="edit-actions">
        <button type="button" class="primary" disabled={!props.ready} onClick={props.onMake} data-generate>
          {t('edit.make')}
        </button>
        {props.overlay && (
          <button type="button" onClick={() => saveBlob(props.overlay!, 'watermark.png')}>
            {t('edit.saveOverlay')}
          </button>
        )}
      </p>
      <Jobs batch={batch} />
      {job?.result && props.image && (
        <CompareResult
          before={{ blob: props.image.file, format: job.result.originalFormat }}
          result={job.result}
        />
      )}
    </>
  )
}
