import { formatName } from '../../kit/api/format-name.ts'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { ServerFacts } from '../../kit/api/server.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { imageSize } from '../../kit/batch/image-size.ts'
import { saveBlob, zipOf } from '../../kit/batch/zip.ts'
import { env } from '../../kit/env.ts'
import { CodeBlock } from '../../kit/ui/CodeBlock.tsx'
import { Live, NumberField, TextField } from '../../kit/ui/fields.tsx'
import { Jobs } from '../../kit/ui/Jobs.tsx'
import { optionRange } from '../../kit/ui/option-range.ts'
import { useBatch } from '../../kit/ui/use-batch.ts'
import { qualityOptions, QualityFields } from '../tools/quality.tsx'
import { pictureMarkup, type SetFile } from './markup.ts'
import { baseName, SingleImageTool } from './single.tsx'

const WIDTHS = [320, 480, 640, 800, 1024, 1280, 1600, 1920, 2560]
const FORMATS = ['avif', 'webp', 'jpeg']

interface Settings {
  readonly widths: readonly number[]
  readonly formats: readonly string[]
  readonly quality: string
  readonly qualityNumber: number
  readonly sizes: string
  readonly alt: string
}

const DEFAULTS: Settings = {
  widths: [480, 800, 1280, 1920],
  formats: FORMATS,
  quality: '',
  qualityNumber: 75,
  sizes: '100vw',
  alt: '',
}

function toggle<T>(list: readonly T[], item: T, on: boolean): T[] {
  return on ? [...new Set([...list, item])] : list.filter((x) => x !== item)
}

function Generator({ image, facts }: { image?: PickedFile; facts: ServerFacts }) {
  const { t, numbers } = env()
  // A width of the set: from 1 to this server's output limit.
  const side = optionRange('width')
  const [settings, setSettings] = useState(DEFAULTS)
  const [custom, setCustom] = useState<number>()
  const { batch, announcement } = useBatch(facts)
  const [original, setOriginal] = useState<{ width: number; height: number }>()
  const set = (next: Partial<Settings>) => setSettings({ ...settings, ...next })
  useEffect(() => {
    setOriginal(undefined)
    if (image) void imageSize(image.file).then(setOriginal)
  }, [image])
  const widths = [...new Set([...WIDTHS, ...settings.widths])].sort((a, b) => a - b)
  // Widths over the image's own would only repeat it (the server never enlarges here).
  const useful = settings.widths.filter((w) => !original || w <= original.width)
  const generate = () => {
    if (!image) return
    batch.clear()
    const base = baseName(image.path)
    batch.add(
      settings.formats.flatMap((format) =>
        [...useful]
          .sort((a, b) => a - b)
          .map((width) => {
            const query = new URLSearchParams({ format, width: String(width) })
            qualityOptions(settings, query)
            return {
              file: image.file,
              path: image.path,
              query,
              tag: format,
              name: (ext: string) => `${base}-${width}.${ext}`,
              // The image is uploaded once, every file a variant of the same request.
              together: true,
            }
          }),
      ),
    )
  }
  const done = batch.jobs.filter((job) => job.status === 'done' && job.result)
  const files: SetFile[] = useMemo(
    () =>
      done.map((job) => ({
        name: job.result!.name,
        format: job.tag!,
        mime: facts.formats.find((f) => f.id === job.tag)?.mime ?? '',
        width: job.result!.width,
        height: job.result!.height,
      })),
    [done.length],
  )
  const markup =
    batch.pending === 0 && files.length > 0
      ? pictureMarkup(files, settings.formats, settings.sizes, settings.alt)
      : ''
  return (
    <>
      <section class="tool-settings" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('common.settings')}</h2>
        <fieldset class="choices chips">
          <legend>{t('responsive.widths')}</legend>
          {widths.map((width) => (
            <label key={width} class="chip">
              <input
                type="checkbox"
                checked={settings.widths.includes(width)}
                onChange={(e) => set({ widths: toggle(settings.widths, width, e.currentTarget.checked) })}
              />
              <span>{numbers.integer(width)}</span>
            </label>
          ))}
        </fieldset>
        <form
          class="inline-add"
          onSubmit={(event) => {
            event.preventDefault()
            if (custom && custom >= side.min && custom <= side.max)
              set({ widths: toggle(settings.widths, custom, true) })
            setCustom(undefined)
          }}
        >
          <NumberField
            id="custom-width"
            label={t('responsive.customWidth')}
            unit="px"
            range={side}
            value={custom}
            onChange={setCustom}
          />
          <button type="submit">{t('responsive.addWidth')}</button>
        </form>
        {original && settings.widths.some((w) => w > original.width) && (
          <p class="hint">{t('responsive.tooWide', { width: numbers.integer(original.width) })}</p>
        )}
        <fieldset class="choices chips">
          <legend>{t('responsive.formats')}</legend>
          {FORMATS.filter((id) => facts.formats.some((f) => f.id === id && f.output)).map((format) => (
            <label key={format} class="chip">
              <input
                type="checkbox"
                checked={settings.formats.includes(format)}
                onChange={(e) =>
                  set({
                    formats: FORMATS.filter((f) =>
                      f === format ? e.currentTarget.checked : settings.formats.includes(f),
                    ),
                  })
                }
              />
              <span translate={false}>{formatName(format)}</span>
            </label>
          ))}
        </fieldset>
        <QualityFields
          settings={settings}
          format={settings.formats.at(-1) ?? 'jpeg'}
          facts={facts}
          onChange={set}
        />
        <TextField
          id="sizes"
          dir="ltr"
          label={t('responsive.sizes')}
          hint={t('responsive.sizesHint')}
          value={settings.sizes}
          onChange={(sizes) => set({ sizes })}
        />
        <TextField
          id="alt"
          label={t('responsive.alt')}
          hint={t('responsive.altHint')}
          value={settings.alt}
          onChange={(alt) => set({ alt })}
        />
        <p>
          <button
            type="button"
            class="primary"
            disabled={!image || useful.length === 0 || settings.formats.length === 0}
            onClick={generate}
            data-generate
          >
            {t('responsive.generate', { count: useful.length * settings.formats.length })}
          </button>
        </p>
      </section>
      <section class="tool-results" aria-labelledby="results-title" hidden={batch.jobs.length === 0}>
        <h2 id="results-title">{t('common.results')}</h2>
        {markup && (
          <>
            <h3>{t('responsive.markup')}</h3>
            <CodeBlock label={t('responsive.markup')} code={markup} />
            <p>
              <button
                type="button"
                class="primary"
                data-download-all
                onClick={async () =>
                  saveBlob(
                    await zipOf([
                      ...done.map((job) => ({ name: job.result!.name, input: job.result!.blob })),
                      { name: 'picture.html', input: `${markup}\n` },
                    ]),
                    `${baseName(image?.path ?? 'image')}-responsive.zip`,
                  )
                }
              >
                {t('common.downloadAll')}
              </button>
            </p>
          </>
        )}
        <Jobs batch={batch} />
      </section>
      <Live text={announcement} />
    </>
  )
}

export function ResponsiveTool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
  return (
    <SingleImageTool initialFiles={initialFiles}>
      {(image, facts) => <Generator image={image} facts={facts} />}
    </SingleImageTool>
  )
}
