import { useState } from 'preact/hooks'
import { folderCommand } from '../api/curl.ts'
import { originalBytes, type Batch } from '../batch/engine.ts'
import { saveBlob, zipOf } from '../batch/zip.ts'
import { env } from '../env.ts'
import { changeClass } from './change.ts'
import { CodeBlock } from './CodeBlock.tsx'
import { FromTo } from './figures.tsx'

/** The batch as a whole: totals, download all, cancel all, and the folder script with these options. */
export function Summary({
  batch,
  query,
  zipName,
}: {
  batch: Batch
  query: URLSearchParams
  zipName: string
}) {
  const { t, numbers, data } = env()
  const [zipping, setZipping] = useState(false)
  const done = batch.jobs.filter((job) => job.status === 'done' && job.result)
  const failed = batch.jobs.filter((job) => job.status === 'failed').length
  if (batch.jobs.length === 0) return null
  const before = done.reduce((sum, job) => sum + originalBytes(job), 0)
  const after = done.reduce((sum, job) => sum + job.result!.blob.size, 0)
  const saved = before - after
  const downloadAll = async () => {
    setZipping(true)
    try {
      saveBlob(await zipOf(done.map((job) => ({ name: job.result!.name, input: job.result!.blob }))), zipName)
    } finally {
      setZipping(false)
    }
  }
  return (
    <section class="summary" aria-label={t('common.summary')}>
      <p class="totals">
        <span>{t('common.totalFiles', { count: done.length, total: batch.jobs.length })}</span>
        {failed > 0 && <span class="failed-count">{t('common.totalFailed', { count: failed })}</span>}
        {/* Sizes only of what was made: a batch with nothing done yet has none to add up. */}
        {done.length > 0 && (
          <span>
            <FromTo before={before} after={after} />
          </span>
        )}
        {done.length > 0 && (
          <strong class={changeClass(before, after)}>
            {saved >= 0
              ? t('common.totalSaved', {
                  bytes: numbers.bytes(saved),
                  percent: numbers.percent(before ? saved / before : 0),
                })
              : t('common.totalGrown', {
                  bytes: numbers.bytes(-saved),
                  percent: numbers.percent(before ? -saved / before : 0),
                })}
          </strong>
        )}
      </p>
      {batch.serverDown && <p class="notice">{t('common.offlineNotice')}</p>}
      <div class="summary-actions">
        <button
          type="button"
          class="primary"
          disabled={done.length === 0 || zipping}
          onClick={downloadAll}
          data-download-all
        >
          {zipping ? t('common.zipping') : t('common.downloadAll')}
        </button>
        {batch.retryable.length > 0 && (
          <button type="button" onClick={() => batch.retryFailed()}>
            {t('common.retryFailed', { count: batch.retryable.length })}
          </button>
        )}
        <button type="button" disabled={batch.pending === 0} onClick={() => batch.cancelAll()}>
          {t('common.cancelAll')}
        </button>
        <button type="button" onClick={() => batch.clear()} data-clear>
          {t('common.clear')}
        </button>
      </div>
      <details class="folder-script">
        <summary>{t('common.folderScript')}</summary>
        <p class="hint">
          {t('common.folderScriptText')}{' '}
          <a href={`${data.examplesPath}#example-folder`}>{t('common.folderScriptLink')}</a>
        </p>
        <CodeBlock label={t('common.folderScript')} code={folderCommand(query, data.keyRequired)} />
      </details>
    </section>
  )
}
