import { formatName } from '../../kit/api/format-name.ts'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { ServerFacts } from '../../kit/api/server.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { env } from '../../kit/env.ts'
import { CompareResult } from '../../kit/ui/Compare.tsx'
import { Choices, ColourField, Live, SelectField, TextField } from '../../kit/ui/fields.tsx'
import { Jobs } from '../../kit/ui/Jobs.tsx'
import { useBatch } from '../../kit/ui/use-batch.ts'
import { usePreview } from '../../kit/ui/use-preview.ts'
import { CARD_HEIGHT, CARD_WIDTH, drawCard, type CardText } from './card-canvas.ts'
import { baseName, SingleImageTool } from './single.tsx'

const OUTPUTS = ['jpeg', 'webp', 'png']

/** The picture as an element the canvas can draw (loaded as an image: blob: is no connection). */
function useLoaded(url: string | undefined): HTMLImageElement | undefined {
  const [image, setImage] = useState<HTMLImageElement>()
  useEffect(() => {
    setImage(undefined)
    if (!url) return
    const element = new Image()
    element.onload = () => setImage(element)
    element.src = url
    return () => void (element.onload = null)
  }, [url])
  return image
}

function Card({ image, facts }: { image?: PickedFile; facts: ServerFacts }) {
  const { t, data } = env()
  const [text, setText] = useState<CardText>({ title: '', subtitle: '', layout: 'bottom', accent: '#f0b429' })
  const [format, setFormat] = useState('jpeg')
  const canvas = useRef<HTMLCanvasElement>(null)
  // The browser's picture of the image, or the server's WebP of it for formats it cannot show.
  const preview = usePreview(image?.file)
  const picture = useLoaded(preview.url)
  const [source, setSource] = useState<Blob>()
  const { batch, announcement } = useBatch(facts)
  const set = (next: Partial<CardText>) => setText({ ...text, ...next })

  useEffect(() => {
    if (!canvas.current) return
    const fonts = getComputedStyle(document.body).fontFamily
    drawCard(canvas.current, picture, text, fonts, data.language)
  }, [picture, text])

  const create = () =>
    canvas.current?.toBlob((png) => {
      if (!png) return
      setSource(png)
      batch.clear()
      const query = new URLSearchParams({ format })
      if (format !== 'png') query.set('quality', 'auto-high')
      const name = `${baseName(image?.path ?? 'card')}-social-card`
      batch.add([{ file: png, path: `${name}.png`, query, name: (ext) => `${name}.${ext}` }])
    }, 'image/png')
  const job = batch.jobs[0]
  return (
    <>
      <section class="tool-settings" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('common.settings')}</h2>
        {(['title', 'subtitle'] as const).map((part) => (
          <TextField
            key={part}
            id={`card-${part}`}
            label={t(`social.${part}`)}
            rows={2}
            maxLength={part === 'title' ? 140 : 200}
            value={text[part]}
            onChange={(value) => set({ [part]: value })}
          />
        ))}
        <Choices
          class="segmented"
          legend={t('social.layout')}
          name="layout"
          value={text.layout}
          choices={(['bottom', 'side'] as const).map((layout) => ({
            value: layout,
            label: t(`social.layoutName.${layout}`),
          }))}
          onChange={(layout) => set({ layout: layout as CardText['layout'] })}
        />
        <ColourField
          id="accent"
          label={t('social.accent')}
          value={text.accent}
          onChange={(accent) => set({ accent })}
        />
        <SelectField
          id="card-format"
          label={t('common.outputFormat')}
          hint={t('social.formatHint')}
          value={format}
          choices={OUTPUTS.filter((id) => facts.formats.some((f) => f.id === id && f.output)).map((id) => ({
            value: id,
            label: formatName(id),
            code: true,
          }))}
          onChange={setFormat}
        />
        <p>
          <button type="button" class="primary" onClick={create} data-generate>
            {t('social.create')}
          </button>
        </p>
      </section>
      <section class="tool-results" aria-labelledby="results-title">
        <h2 id="results-title">{t('social.preview')}</h2>
        <canvas
          ref={canvas}
          class="card-canvas"
          width={CARD_WIDTH}
          height={CARD_HEIGHT}
          role="img"
          aria-label={t('social.canvasLabel', { title: text.title || t('social.untitled') })}
        />
        {!image && <p class="hint">{t('social.noImage')}</p>}
        <Jobs batch={batch} />
        {job?.result && source && (
          <CompareResult
            before={{ blob: source, format: 'png', width: CARD_WIDTH, height: CARD_HEIGHT }}
            result={job.result}
          />
        )}
      </section>
      <Live text={announcement} />
    </>
  )
}

export function SocialCardTool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
  return (
    <SingleImageTool initialFiles={initialFiles}>
      {(image, facts) => <Card image={image} facts={facts} />}
    </SingleImageTool>
  )
}
