import { useEffect, useRef, useState } from 'preact/hooks'
import { problemOf, retryAfterSeconds, type Problem } from '../../kit/api/problem.ts'
import { Aborted, postImage, type Sending } from '../../kit/api/send.ts'
import { env } from '../../kit/env.ts'

export interface EditPreview {
  readonly url?: string
  readonly width?: number
  readonly height?: number
  readonly working: boolean
  readonly problem?: Problem
}

/** A pause after the last change before asking, so dragging a slider sends one request, not fifty. */
const SETTLE_MS = 350

/**
 * The server's rendering of the edit at screen size: the same POST /api/compress as the result,
 * with the preview's width and height, asked again whenever the options change (the request
 * before is cancelled). A 429 or 503 is waited out for its Retry-After, as the batch does.
 */
export function useEditPreview(
  image: Blob | undefined,
  query: string,
  overlay: Blob | undefined,
): EditPreview {
  const [preview, setPreview] = useState<EditPreview>({ working: false })
  // The picture shown stays until the next one arrives; it is released then.
  const shown = useRef<string | undefined>(undefined)
  const show = (next: EditPreview) => {
    if (shown.current && shown.current !== next.url) URL.revokeObjectURL(shown.current)
    shown.current = next.url
    setPreview(next)
  }
  useEffect(() => () => show({ working: false }), [image])
  useEffect(() => {
    if (!image) return
    let sending: Sending | undefined
    let timer: ReturnType<typeof setTimeout>
    let live = true
    const ask = async () => {
      setPreview((before) => ({ ...before, working: true }))
      sending = postImage(image, new URLSearchParams(query), env().data.language, {}, overlay)
      try {
        const answer = await sending.answer
        if (!live) return
        if (answer.status === 200) {
          const width = Number(answer.header('x-image-width'))
          const height = Number(answer.header('x-image-height'))
          return show({ url: URL.createObjectURL(answer.body), width, height, working: false })
        }
        const wait = retryAfterSeconds(answer)
        if (wait !== undefined) return void (timer = setTimeout(ask, wait * 1000))
        const problem = await problemOf(answer)
        if (live) show({ working: false, problem })
      } catch (error) {
        if (live && !(error instanceof Aborted))
          show({ working: false, problem: { code: 'NETWORK', title: env().t('common.networkTitle') } })
      }
    }
    timer = setTimeout(ask, SETTLE_MS)
    return () => {
      live = false
      clearTimeout(timer)
      sending?.abort()
    }
  }, [image, query, overlay])
  return preview
}
