import { useEffect, useState } from 'preact/hooks'
import { postImage } from '../api/send.ts'
import { env } from '../env.ts'

export interface Preview {
  readonly url?: string
  /** The browser cannot show this format: the picture is the server's conversion of it. */
  readonly converted: boolean
  /** Neither the browser nor a conversion could show it: only its facts are left. */
  readonly failed: boolean
  readonly width?: number
  readonly height?: number
}

/** An image element once the browser has decoded the picture at `url`. */
export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => resolve(image)
    image.onerror = reject
    image.src = url
  })
}

/**
 * A picture of an image for the comparison: the image itself where the browser shows its format;
 * otherwise (TIFF, HEIC, JPEG XL) a WebP at screen width made by POST /api/compress.
 */
export function usePreview(blob: Blob | undefined): Preview {
  const [preview, setPreview] = useState<Preview>({ converted: false, failed: false })
  useEffect(() => {
    if (!blob) return
    let cancelled = false
    const urls: string[] = []
    const show = (next: Preview) => !cancelled && setPreview(next)
    const own = URL.createObjectURL(blob)
    urls.push(own)
    loadImage(own)
      .then((image) =>
        show({
          url: own,
          converted: false,
          failed: false,
          width: image.naturalWidth,
          height: image.naturalHeight,
        }),
      )
      .catch(async () => {
        const width = String(Math.min(2560, Math.round(screen.width * devicePixelRatio)))
        const query = new URLSearchParams({ format: 'webp', width, quality: '90' })
        try {
          const answer = await postImage(blob, query, env().data.language).answer
          if (answer.status !== 200) throw new Error(String(answer.status))
          const url = URL.createObjectURL(answer.body)
          urls.push(url)
          show({ url, converted: true, failed: false })
        } catch {
          show({ converted: false, failed: true })
        }
      })
    return () => {
      cancelled = true
      for (const url of urls) URL.revokeObjectURL(url)
    }
  }, [blob])
  return preview
}
