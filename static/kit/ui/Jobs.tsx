import type { ComponentChildren } from 'preact'
import { useEffect, useReducer } from 'preact/hooks'
import { formatName } from '../api/format-name.ts'
import { curlCommand } from '../api/curl.ts'
import { mayPassAgain } from '../api/problem.ts'
import { limitedByClient, originalBytes, type Batch, type Job } from '../batch/engine.ts'
import { saveBlob } from '../batch/zip.ts'
import { env } from '../env.ts'
import { changeClass, changeText } from './change.ts'
import { CodeBlock } from './CodeBlock.tsx'
import { DepthNote } from './DepthNote.tsx'
import { Dimensions, FromTo, Size } from './figures.tsx'
import { ProblemText } from './ProblemText.tsx'

interface Props {
  readonly batch: Batch
  readonly selected?: number
  /** Where comparing is offered; without it the rows have no Compare button. */
  onCompare?(job: Job): void
  /** What the tool adds to a file's card: a word on its result, and what can be done about it. */
  note?(job: Job): ComponentChildren
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
export function Jobs({ batch, selected, onCompare, note }: Props) {
  const { t } = env()
  useCountdown(batch.jobs.some((job) => job.status === 'waiting'))
  if (batch.jobs.length === 0) return null
  return (
    <ul class="jobs" aria-label={t('common.files')}>
      {batch.jobs.map((job) => (
        <JobRow
          key={job.id}
          job={job}
          batch={batch}
          selected={job.id === selected}
          onCompare={onCompare}
          note={note}
        />
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
      return t(job.url ? 'common.statusFetching' : 'common.statusProcessing')
    case 'offline':
      return t('common.statusOffline')
    case 'needsKey':
      return t(job.problem?.status === 401 ? 'common.statusKeyRefused' : 'common.statusNeedsKey', {
        button: t('common.quoted', { text: t('common.keySave') }),
      })
    case 'waiting':
      return t(limitedByClient(job) ? 'common.statusLimited' : 'common.statusWaiting', {
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
  note,
}: Omit<Props, 'selected'> & { job: Job; selected: boolean }) {
  const { t, data } = env()
  const result = job.result
  const active = job.status === 'uploading' || job.status === 'processing'
  // Still to be sent: its turn, a Retry-After or the server to answer again.
  const held = ['queued', 'waiting', 'offline', 'needsKey'].includes(job.status)
  return (
    <li class={`job status-${job.status}${selected ? ' selected' : ''}`}>
      <div class="job-head">
        {/* The row's direction places the name at its start; the name itself keeps its own. */}
        <span class="job-name" translate={false} title={job.url ?? job.path}>
          <bdi>{result?.name ?? job.label ?? job.path}</bdi>
        </span>
        <span class="job-sizes">
          {result ? (
            <FromTo before={originalBytes(job)} after={result.blob.size} />
          ) : job.file ? (
            <Size bytes={job.file.size} />
          ) : (
            // Where the server fetches it from, until its size is known.
            <bdi dir="ltr" translate={false}>
              {new URL(job.url!).host}
            </bdi>
          )}
        </span>
        {result && (
          <span class={`job-change ${changeClass(originalBytes(job), result.blob.size)}`}>
            {changeText(originalBytes(job), result.blob.size)}
          </span>
        )}
      </div>
      <div class="job-state">
        {active || held ? (
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
            <Dimensions width={result.width} height={result.height} />
            {result.resizedToFit && ` · ${t('common.resizedToFit')}`}
          </span>
        )}
      </div>
      {/* A file waiting out Retry-After is sent again by itself: its status says when. */}
      {job.problem && job.status === 'failed' && (
        <ProblemText problem={job.problem} query={job.query} fromUrl={Boolean(job.url)} />
      )}
      {result && <DepthNote job={job} />}
      {note?.(job)}
      <div class="job-actions">
        {result && (
          <>
            {onCompare && (
              // Without the original (fetched by the server), there is only the result to view.
              <button type="button" aria-pressed={selected} onClick={() => onCompare(job)}>
                {t(job.file ? 'common.compare' : 'common.view')}
              </button>
            )}
            <button type="button" onClick={() => saveBlob(result.blob, result.name.split('/').pop()!)}>
              {t('common.download')}
            </button>
          </>
        )}
        {(active || held) && (
          <button type="button" onClick={() => batch.cancel(job)}>
            {t('common.cancel')}
          </button>
        )}
        {(job.status === 'cancelled' ||
          (job.status === 'failed' && job.problem && mayPassAgain(job.problem))) && (
          <button type="button" onClick={() => batch.retry(job)}>
            {t('common.retry')}
          </button>
        )}
      </div>
      {/* A result the page made over (an icon laid on its colour) is not what the command gives. */}
      {result && !job.afterward && (
        <details class="job-curl">
          <summary>{t('common.asCurl')}</summary>
          <CodeBlock
            label={t('common.asCurl')}
            code={curlCommand({
              file: job.file && job.path.split('/').pop()!,
              url: job.url,
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
