import { useEffect, useMemo, useState } from 'preact/hooks'
import type { ServerFacts, ServerFormat } from '../../kit/api/server.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { env } from '../../kit/env.ts'
import { baseName, SingleImageTool } from '../generate/single.tsx'
import { restoreSettings } from '../../kit/ui/restore.ts'
import { Live } from '../../kit/ui/fields.tsx'
import { FormatSelect } from '../../kit/ui/FormatSelect.tsx'
import { Presets } from '../../kit/ui/Presets.tsx'
import { ProblemText } from '../../kit/ui/ProblemText.tsx'
import { useBatch } from '../../kit/ui/use-batch.ts'
import { Adjustments } from './Adjustments.tsx'
import { AnimationNote } from './AnimationNote.tsx'
import { Borders } from './Borders.tsx'
import { CropStage } from './CropStage.tsx'
import { CropTools } from './CropTools.tsx'
import { EditResult } from './EditResult.tsx'
import { ratioOf, EDIT_DEFAULTS, editQuery, resultSize, type EditSettings } from './settings.ts'
import { textOverlay } from './text-overlay.ts'
import { useEditPreview } from './use-edit-preview.ts'
import { useSource } from './use-source.ts'
import { Watermark } from './Watermark.tsx'

/** The preview's largest side in pixels: sharp on any screen, and quick to make and send. */
const PREVIEW_PIXELS = 1200

/** The format the result will have: the one chosen, or the original's when it can be written. */
function outputOf(
  settings: EditSettings,
  file: File | undefined,
  facts: ServerFacts,
): ServerFormat | undefined {
  const id = settings.format !== 'original' ? settings.format : undefined
  return facts.formats.find((f) => f.output && (id ? f.id === id : f.mime === file?.type))
}

/** The watermark to send: the logo chosen, or the text drawn into a PNG (redrawn as it changes). */
function useOverlay(settings: EditSettings, logo: File | undefined): Blob | undefined {
  const [drawn, setDrawn] = useState<Blob>()
  useEffect(() => {
    if (settings.watermark !== 'text') return setDrawn(undefined)
    let live = true
    const fonts = getComputedStyle(document.body).fontFamily
    void textOverlay(settings.text, settings.textColour, fonts).then((png) => live && setDrawn(png))
    return () => void (live = false)
  }, [settings.watermark, settings.text, settings.textColour])
  return settings.watermark === 'logo' ? logo : settings.watermark === 'text' ? drawn : undefined
}

function Editor({ image, facts }: { image?: PickedFile; facts: ServerFacts }) {
  const { t } = env()
  const [settings, setSettings] = useState(EDIT_DEFAULTS)
  const [logo, setLogo] = useState<File>()
  const set = (next: Partial<EditSettings>) => setSettings((before) => ({ ...before, ...next }))
  const source = useSource(image?.file)
  // A new image starts uncropped; the other settings carry over, as in the batch tools.
  useEffect(() => set({ crop: undefined }), [image])
  const overlay = useOverlay(settings, logo)
  const overlayName = settings.watermark === 'logo' ? (logo?.name ?? 'logo.png') : 'watermark.png'
  const output = outputOf(settings, image?.file, facts)
  const query = useMemo(() => editQuery(settings, Boolean(overlay)), [settings, overlay])

  const previewQuery = useMemo(() => {
    if (!source.size) return ''
    const size = resultSize(settings, source.size)
    const scale = Math.min(1, PREVIEW_PIXELS / size.width, PREVIEW_PIXELS / size.height)
    const preview = editQuery(settings, Boolean(overlay), scale)
    if (scale < 1) for (const side of ['width', 'height']) preview.set(side, String(PREVIEW_PIXELS))
    // A picture the browser shows; JPEG where the result has no transparency, so fills look right.
    preview.set('format', output && !output.alpha ? 'jpeg' : 'webp')
    preview.set('quality', '80')
    return preview.toString()
  }, [settings, overlay, source.size, output])
  const preview = useEditPreview(source.size ? image?.file : undefined, previewQuery, overlay)

  const { batch, announcement } = useBatch(facts)
  const make = () => {
    if (!image) return
    batch.clear()
    const name = `${baseName(image.path)}-edited`
    batch.add([
      {
        file: image.file,
        path: image.path,
        query,
        name: (extension) => `${name}.${extension}`,
        overlay: overlay && { blob: overlay, name: overlayName },
      },
    ])
  }
  const missingOverlay = settings.watermark !== 'none' && !overlay
  return (
    <>
      <section class="tool-settings edit-settings" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('common.settings')}</h2>
        <Adjustments settings={settings} set={set} />
        <Borders settings={settings} set={set} />
        <Watermark settings={settings} logo={logo} onLogo={setLogo} set={set} />
        <FormatSelect
          facts={facts}
          words={['original']}
          value={settings.format}
          onChange={(format) => set({ format })}
        />
        <p>
          <button type="button" onClick={() => setSettings({ ...EDIT_DEFAULTS, crop: undefined })}>
            {t('edit.resetAll')}
          </button>
        </p>
        <Presets
          tool="edit"
          settings={settings}
          query={query}
          apply={(saved) => setSettings(restoreSettings(EDIT_DEFAULTS, saved))}
        />
      </section>
      <section class="tool-results edit-main" aria-labelledby="crop-title" hidden={!image}>
        <h2 id="crop-title">{t('edit.cropTitle')}</h2>
        {source.problem && <ProblemText problem={source.problem} />}
        {image && !source.image && !source.problem && <p class="hint">{t('edit.reading')}</p>}
        {source.image && source.size && (
          <>
            <CropTools settings={settings} size={source.size} set={set} />
            <CropStage
              image={source.image}
              size={source.size}
              view={{ turns: settings.turns, flip: settings.flip, flop: settings.flop }}
              crop={settings.crop}
              ratio={ratioOf(settings.ratio)}
              onCrop={(crop) => set({ crop })}
            />
          </>
        )}
        <AnimationNote
          frames={source.frames}
          settings={settings}
          watermark={settings.watermark !== 'none'}
          output={output}
        />
        <EditResult
          preview={preview}
          batch={batch}
          image={image}
          overlay={settings.watermark === 'text' ? overlay : undefined}
          ready={Boolean(source.size) && !missingOverlay}
          missingOverlay={missingOverlay}
          onMake={make}
        />
      </section>
      <Live text={announcement} />
    </>
  )
}

export function EditTool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
  return (
    <SingleImageTool initialFiles={initialFiles}>
      {(image, facts) => <Editor image={image} facts={facts} />}
    </SingleImageTool>
  )
}
