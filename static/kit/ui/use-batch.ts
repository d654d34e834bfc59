import { useEffect, useMemo, useReducer, useRef, useState } from 'preact/hooks'
import { savedKey, whenKeyGiven } from '../api/key.ts'
import { concurrency, extensionOf, serverAnswers, type ServerFacts } from '../api/server.ts'
import { Batch, limitedByClient, originalBytes, type Job } from '../batch/engine.ts'
import { env } from '../env.ts'
import { changeText } from './change.ts'

/**
 * A Batch bound to the page: every change re-renders (at most once a frame), and what matters
 * to a reader who cannot see the list (done, failed, waiting, all finished) is announced.
 */
export function useBatch(facts: ServerFacts | undefined): { batch: Batch; announcement: string } {
  const { t, data, numbers } = env()
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  const [announcement, setAnnouncement] = useState('')
  // One batch for the page's life; it reads the server's facts when it needs them.
  const server = useRef(facts)
  server.current = facts
  const batch = useMemo(() => {
    let frame = 0
    const announce = (job: Job) => {
      const name = job.path
      if (job.status === 'done' && job.result)
        setAnnouncement(
          t('common.announceDone', { name, change: changeText(originalBytes(job), job.result.blob.size) }),
        )
      else if (job.status === 'failed')
        setAnnouncement(t('common.announceFailed', { name, problem: job.problem?.title ?? '' }))
      else if (job.status === 'offline') setAnnouncement(t('common.announceOffline'))
      else if (job.status === 'needsKey') setAnnouncement(t('common.announceNeedsKey'))
      else if (job.status === 'waiting')
        setAnnouncement(
          t(limitedByClient(job) ? 'common.announceLimited' : 'common.announceWaiting', {
            name,
            seconds: Math.ceil(((job.retryAt ?? 0) - Date.now()) / 1000),
          }),
        )
      if (['done', 'failed'].includes(job.status) && created.pending === 0)
        setAnnouncement((text) => `${text} ${t('common.announceAllDone')}`)
    }
    const created: Batch = new Batch({
      language: data.language,
      concurrency: () => (server.current ? concurrency(server.current) : 1),
      extensionOf: (format) => (server.current ? extensionOf(server.current, format) : format),
      maxVariants: () => server.current?.limits.maxVariants ?? 1,
      maxUploadBytes: () => server.current?.limits.maxUploadBytes ?? Infinity,
      tooLarge: (size, limit) => ({
        code: 'PAYLOAD_TOO_LARGE',
        title: t('common.tooLargeTitle'),
        detail: t('common.tooLargeDetail', { size: numbers.bytes(size), limit: numbers.bytes(limit) }),
      }),
      networkProblem: () => ({
        code: 'NETWORK',
        title: t('common.networkTitle'),
        detail: t('common.networkDetail'),
      }),
      reachable: serverAnswers,
      keyRequired: data.keyRequired,
      currentKey: savedKey,
      onChange: (job) => {
        if (job) announce(job)
        if (!frame) frame = requestAnimationFrame(() => ((frame = 0), rerender(0)))
      },
    })
    return created
  }, [])
  useEffect(() => whenKeyGiven(() => batch.keyGiven()), [batch])
  return { batch, announcement }
}
