import { formatName } from '../api/format-name.ts'
import { useEffect, useReducer } from 'preact/hooks'
import { curlCommand } from '../api/curl.ts'
import type { Batch, Job } from '../batch/engine.ts'
import { saveBlob } from '../batch/zip.ts'
import { env } from '../env.ts'
import { changeClass, changeText, fromTo } from './change.ts'
import { CodeBlock } from './CodeBlock.tsx'
import { ProblemText } from './ProblemText.tsx'

interface Props {
  readonly batch: Batch
  readonly selected?: number
  /** Where comparing is offered; without it the rows have no Compare button. */
  onCompare?(job: Job): void
}

/** Re-renders once a second while a job waits out a Retry-After, so its countdown moves. */
function useCountdown(active: boolean): void {
  const [, tick] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    if (!active) return
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [active])
}

/** Every file of the batch: where it is, what became of it, and what can be done with it. */
export function Jobs({ batch, selected, onCompare }: Props) {
  const { t } = env()
  useCountdown(batch.jobs.some((job) => job.status === 'waiting'))
  if (batch.jobs.length === 0) return null
  return (
    <ul class="jobs" aria-label={t('common.files')}>
      {batch.jobs.map((job) => (
        <JobRow key={job.id} job={job} batch={batch} selected={job.id === selected} onCompare={onCompare} />
      ))}
    </ul>
  )
}

function statusText(job: Job): string {
  const { t, numbers } = env()
  switch (job.status) {
    case 'queued':
      return t('common.statusQueued')
    case 'uploading':
      return t('common.statusUploading', { percent: numbers.percent(job.uploaded) })
    case 'processing':
      return t('common.statusProcessing')
    case 'waiting':
      return t('common.statusWaiting', {
        seconds: Math.max(0, Math.ceil(((job.retryAt ?? 0) - Date.now()) / 1000)),
      })
    case 'done':
      return job.result?.kind === 'original' ? t('common.statusKept') : t('common.statusDone')
    case 'failed':
      return t('common.statusFailed')
    case 'cancelled':
      return t('common.statusCancelled')
  }
}

function JobRow({
  job,
  batch,
  selected,
  onCompare,
}: {
  job: Job
  batch: Batch
  selected: boolean
  onCompare?(job: Job): void
}) {
  const { t, numbers, data } = env()
  const result = job.result
  const active = job.status === 'uploading' || job.status === 'processing'
  return (
    <li class={`job status-${job.status}${selected ? ' selected' : ''}`}>
      <div class="job-head">
        <span class="job-name" dir="auto" translate={false} title={job.path}>
          {result?.name ?? job.label ?? job.path}
        </span>
        <span class="job-sizes">
          {result
            ? fromTo(numbers.bytes(job.file.size), numbers.bytes(result.blob.size))
            : numbers.bytes(job.file.size)}
        </span>
        {result && (
          <span class={`job-change ${changeClass(job.file.size, result.blob.size)}`}>
            {changeText(job.file.size, result.blob.size)}
          </span>
        )}
      </div>
      <div class="job-state">
        {active || job.status === 'queued' || job.status === 'waiting' ? (
          <progress
            max={1}
            value={job.status === 'processing' ? undefined : job.uploaded}
            aria-label={t('common.progressOf', { name: job.path })}
          />
        ) : null}
        <span class="job-status">{statusText(job)}</span>
        {result && (
          <span class="job-facts">
            <span translate={false}>{formatName(result.format)}</span>{' '}
            {t('common.dimensions', {
              width: numbers.integer(result.width),
              height: numbers.integer(result.height),
            })}
            {result.resizedToFit && ` · ${t('common.resizedToFit')}`}
          </span>
        )}
      </div>
      {job.problem && job.status !== 'done' && <ProblemText problem={job.problem} />}
      <div class="job-actions">
        {result && (
          <>
            {onCompare && (
              <button type="button" aria-pressed={selected} onClick={() => onCompare(job)}>
                {t('common.compare')}
              </button>
            )}
            <button type="button" onClick={() => saveBlob(result.blob, result.name.split('/').pop()!)}>
              {t('common.download')}
            </button>
          </>
        )}
        {(active || job.status === 'queued' || job.status === 'waiting') && (
          <button type="button" onClick={() => batch.cancel(job)}>
            {t('common.cancel')}
          </button>
        )}
        {(job.status === 'failed' || job.status === 'cancelled') && (
          <button type="button" onClick={() => batch.retry(job)}>
            {t('common.retry')}
          </button>
        )}
      </div>
      {result && (
        <details class="job-curl">
          <summary>{t('common.asCurl')}</summary>
          <CodeBlock
            label={t('common.asCurl')}
            code={curlCommand({
              file: job.path.split('/').pop()!,
              query: job.query,
              output: result.name.split('/').pop()!,
              keyRequired: data.keyRequired,
              overlay: job.overlay?.name,
            })}
          />
        </details>
      )}
    </li>
  )
}
