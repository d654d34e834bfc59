import { useEffect, useRef, useState } from 'preact/hooks'
import { problemOf, type Problem } from '../../kit/api/problem.ts'
import { postImage } from '../../kit/api/send.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { env } from '../../kit/env.ts'
import { CodeBlock } from '../../kit/ui/CodeBlock.tsx'
import { ProblemText } from '../../kit/ui/ProblemText.tsx'
import { dataUrlOf, dominantColour, pixelsOf } from './pixels.ts'
import { SingleImageTool } from './single.tsx'

interface Placeholders {
  readonly lqip: string
  readonly lqipBytes: number
  readonly blurhash: string
  readonly colour: string
  readonly width: number
  readonly height: number
}

/** One small version of the image from the server: every placeholder starts from its own. */
async function small(image: Blob, options: Record<string, string>): Promise<Blob> {
  const { data } = env()
  const answer = await postImage(image, new URLSearchParams(options), data.language).answer
  if (answer.status !== 200) throw await problemOf(answer)
  return answer.body
}

/**
 * Three placeholders from POST /api/compress: a tiny WebP as a data: URI (LQIP), a BlurHash of a
 * 32-pixel PNG (encoded here by the blurhash library) and that PNG's dominant colour.
 */
async function makePlaceholders(image: Blob): Promise<Placeholders> {
  const [tiny, thumbnail] = await Promise.all([
    small(image, { format: 'webp', width: '24', quality: '40' }),
    small(image, { format: 'png', width: '32', lossless: 'true' }),
  ])
  const pixels = await pixelsOf(thumbnail)
  const { encode } = await import('blurhash')
  const x = pixels.width >= pixels.height ? 4 : 3
  return {
    lqip: await dataUrlOf(tiny),
    lqipBytes: tiny.size,
    blurhash: encode(pixels.data, pixels.width, pixels.height, x, 7 - x),
    colour: dominantColour(pixels),
    width: pixels.width,
    height: pixels.height,
  }
}

function BlurHashPreview({
  hash,
  width,
  height,
  label,
}: {
  hash: string
  width: number
  height: number
  label: string
}) {
  const canvas = useRef<HTMLCanvasElement>(null)
  useEffect(() => {
    void import('blurhash').then(({ decode }) => {
      const target = canvas.current
      if (!target) return
      const pixels = decode(hash, width, height)
      target
        .getContext('2d')!
        .putImageData(new ImageData(Uint8ClampedArray.from(pixels), width, height), 0, 0)
    })
  }, [hash])
  return (
    <canvas
      ref={canvas}
      width={width}
      height={height}
      class="placeholder-preview"
      role="img"
      aria-label={label}
    />
  )
}

function Results({ image }: { image?: PickedFile }) {
  const { t, numbers } = env()
  const [made, setMade] = useState<Placeholders>()
  const [problem, setProblem] = useState<Problem>()
  useEffect(() => {
    setMade(undefined)
    setProblem(undefined)
    if (image)
      makePlaceholders(image.file).then(setMade, (error: unknown) =>
        setProblem(
          error && typeof error === 'object' && 'code' in error
            ? (error as Problem)
            : { code: 'NETWORK', title: t('common.networkTitle') },
        ),
      )
  }, [image])
  if (!image) return null
  if (problem) return <ProblemText problem={problem} />
  if (!made)
    return (
      <p class="hint" role="status">
        {t('placeholders.making')}
      </p>
    )
  const ratio = `${made.width} / ${made.height}`
  return (
    <section class="tool-results placeholders" aria-labelledby="results-title">
      <h2 id="results-title">{t('common.results')}</h2>
      <article class="placeholder">
        <h3>{t('placeholders.lqip')}</h3>
        <img
          src={made.lqip}
          alt={t('placeholders.lqipAlt')}
          class="placeholder-preview lqip"
          style={{ aspectRatio: ratio }}
        />
        <p class="hint">{t('placeholders.lqipHint', { size: numbers.bytes(made.lqipBytes) })}</p>
        <CodeBlock
          label={t('placeholders.lqip')}
          code={`<img src="${made.lqip}" alt="" style="filter: blur(12px)">`}
        />
      </article>
      <article class="placeholder">
        <h3>{t('placeholders.blurhash')}</h3>
        <BlurHashPreview
          hash={made.blurhash}
          width={made.width}
          height={made.height}
          label={t('placeholders.blurhashAlt')}
        />
        <p class="hint">{t('placeholders.blurhashHint')}</p>
        <CodeBlock label={t('placeholders.blurhash')} code={made.blurhash} />
        <CodeBlock
          label={t('placeholders.blurhashCode')}
          code={`import { decode } from 'blurhash'\nconst pixels = decode('${made.blurhash}', ${made.width}, ${made.height})\ncontext.putImageData(new ImageData(pixels, ${made.width}, ${made.height}), 0, 0)`}
        />
      </article>
      <article class="placeholder">
        <h3>{t('placeholders.colour')}</h3>
        <div
          class="placeholder-preview swatch"
          style={{ background: made.colour, aspectRatio: ratio }}
          data-colour={made.colour}
        />
        <p class="hint">{t('placeholders.colourHint')}</p>
        <CodeBlock label={t('placeholders.colour')} code={`background-color: ${made.colour};`} />
      </article>
    </section>
  )
}

export function PlaceholdersTool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
  return <SingleImageTool initialFiles={initialFiles}>{(image) => <Results image={image} />}</SingleImageTool>
}
