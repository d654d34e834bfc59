import { useEffect, useState } from 'preact/hooks'
import { problemOf, type Problem } from '../../kit/api/problem.ts'
import { postImage } from '../../kit/api/send.ts'
import { env } from '../../kit/env.ts'
import { loadImage } from '../../kit/ui/use-preview.ts'
import { frameCount } from './frames.ts'
import type { Size } from './geometry.ts'

export interface Source {
  readonly image?: HTMLImageElement
  /** The upright original's size (EXIF orientation applied), the space `crop` is measured in. */
  readonly size?: Size
  readonly frames: number
  readonly problem?: Problem
}

/**
 * The image to crop on: the file itself where the browser shows it (upright, as the browser
 * applies EXIF orientation, which is the API's space too); otherwise (TIFF, HEIC, JPEG XL) the
 * server's full-size JPEG of it, whose size is the original's.
 */
export function useSource(file: Blob | undefined): Source {
  const [source, setSource] = useState<Source>({ frames: 1 })
  useEffect(() => {
    setSource({ frames: 1 })
    if (!file) return
    let live = true
    const urls: string[] = []
    const track = (blob: Blob) => {
      const url = URL.createObjectURL(blob)
      urls.push(url)
      return url
    }
    const ready = (image: HTMLImageElement, frames: number) =>
      live && setSource({ image, size: { width: image.naturalWidth, height: image.naturalHeight }, frames })
    void frameCount(file).then(async (frames) => {
      try {
        ready(await loadImage(track(file)), frames)
      } catch {
        const query = new URLSearchParams({ format: 'jpeg', quality: '85' })
        const answer = await postImage(file, query, env().data.language).answer.catch(() => undefined)
        if (!answer)
          return (
            live && setSource({ frames, problem: { code: 'NETWORK', title: env().t('common.networkTitle') } })
          )
        if (answer.status !== 200) return live && setSource({ frames, problem: await problemOf(answer) })
        ready(await loadImage(track(answer.body)), frames)
      }
    })
    return () => {
      live = false
      for (const url of urls) URL.revokeObjectURL(url)
    }
  }, [file])
  return source
}
