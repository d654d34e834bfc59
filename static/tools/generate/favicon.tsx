import { useEffect, useMemo, useState } from 'preact/hooks'
import type { ServerFacts } from '../../kit/api/server.ts'
import type { Job } from '../../kit/batch/engine.ts'
import type { PickedFile } from '../../kit/batch/files.ts'
import { saveBlob, zipOf } from '../../kit/batch/zip.ts'
import { env } from '../../kit/env.ts'
import { CodeBlock } from '../../kit/ui/CodeBlock.tsx'
import { Choices, ColourField, Live, TextField } from '../../kit/ui/fields.tsx'
import { Jobs } from '../../kit/ui/Jobs.tsx'
import { Prose } from '../../kit/ui/Prose.tsx'
import { useBatch } from '../../kit/ui/use-batch.ts'
import type { JobInput } from '../../kit/batch/engine.ts'
import {
  ICON_FILES,
  iconQuery,
  linkMarkup,
  manifestOf,
  pictureSide,
  type IconFile,
  type PackSettings,
  type Squaring,
} from './favicon-pack.ts'
import { layOn } from './pixels.ts'
import { baseName, SingleImageTool } from './single.tsx'

const DEFAULTS: PackSettings = {
  name: '',
  shortName: '',
  background: '#ffffff',
  theme: '#0a58ca',
  squaring: 'centre',
  base: '/',
}

const SQUARINGS: readonly Squaring[] = ['centre', 'attention', 'contain']

/** Each icon as made, at its own size, the maskable one also inside the circle platforms cut. */
function Icons({ jobs }: { jobs: readonly Job[] }) {
  const key = jobs.map((job) => job.id).join()
  const urls = useMemo(() => jobs.map((job) => URL.createObjectURL(job.result!.blob)), [key])
  useEffect(() => () => urls.forEach((url) => URL.revokeObjectURL(url)), [urls])
  return (
    <ul class="icon-previews">
      {jobs.map((job, i) => {
        const file = ICON_FILES.find((f) => f.name === job.result!.name)
        const side = Math.min(file?.size ?? 48, 128)
        return (
          <li key={job.id}>
            <img
              src={urls[i]}
              width={side}
              height={side}
              class={file?.maskable ? 'maskable' : undefined}
              alt=""
            />
            <span dir="ltr" translate={false}>
              {job.result!.name}
            </span>
          </li>
        )
      })}
    </ul>
  )
}

/** One file of the pack: a variant of the pack's one request, an opaque one laid on its colour after. */
function iconJob(image: PickedFile, file: IconFile, settings: PackSettings): JobInput {
  const inset = (file.size - pictureSide(file)) / 2
  return {
    file: image.file,
    path: image.path,
    tag: file.name,
    label: file.name,
    query: iconQuery(file, settings),
    name: () => file.name,
    together: true,
    ...(file.opaque && {
      afterward: async (result) => ({
        ...result,
        blob: await layOn(result.blob, settings.background, file.size, inset),
        width: file.size,
        height: file.size,
      }),
    }),
  }
}

function Pack({ image, facts }: { image?: PickedFile; facts: ServerFacts }) {
  const { t } = env()
  const [settings, setSettings] = useState(DEFAULTS)
  const set = (next: Partial<PackSettings>) => setSettings({ ...settings, ...next })
  const { batch, announcement } = useBatch(facts)
  const named = { ...settings, name: settings.name.trim() || baseName(image?.path ?? 'app') }
  const generate = () => {
    if (!image) return
    batch.clear()
    batch.add(ICON_FILES.map((file) => iconJob(image, file, named)))
  }
  const done = batch.jobs.filter((job) => job.status === 'done' && job.result)
  // Settled: what was made is shown even when a file failed (its card says why).
  const complete = batch.jobs.length > 0 && batch.pending === 0 && done.length > 0
  const links = linkMarkup(named)
  const manifest = manifestOf(named)
  const download = async () =>
    saveBlob(
      await zipOf([
        ...done.map((job) => ({ name: job.result!.name, input: job.result!.blob })),
        { name: 'site.webmanifest', input: manifest },
        { name: 'favicon.html', input: `${links}\n` },
      ]),
      `${baseName(image?.path ?? 'app')}-favicons.zip`,
    )
  return (
    <>
      <section class="tool-settings" aria-labelledby="settings-title">
        <h2 id="settings-title">{t('common.settings')}</h2>
        <Choices
          legend={t('favicon.squaring')}
          name="squaring"
          value={settings.squaring}
          choices={SQUARINGS.map((value) => ({
            value,
            label: t(`favicon.squaringName.${value}`),
            hint: t(`favicon.squaringHint.${value}`),
          }))}
          onChange={(value) => set({ squaring: value as Squaring })}
        />
        <ColourField
          id="favicon-background"
          label={t('favicon.background')}
          hint={t('favicon.backgroundHint')}
          value={settings.background}
          onChange={(background) => set({ background })}
        />
        <ColourField
          id="favicon-theme"
          label={t('favicon.theme')}
          hint={<Prose text={t('favicon.themeHint')} />}
          value={settings.theme}
          onChange={(theme) => set({ theme })}
        />
        <TextField
          id="app-name"
          label={t('favicon.name')}
          hint={t('favicon.nameHint')}
          maxLength={80}
          value={settings.name}
          onChange={(name) => set({ name })}
        />
        <TextField
          id="app-short-name"
          label={t('favicon.shortName')}
          hint={t('favicon.shortNameHint')}
          maxLength={30}
          value={settings.shortName}
          onChange={(shortName) => set({ shortName })}
        />
        <TextField
          id="icon-base"
          dir="ltr"
          label={t('favicon.base')}
          hint={<Prose text={t('favicon.baseHint')} />}
          maxLength={200}
          value={settings.base}
          onChange={(base) => set({ base: base || '/' })}
        />
        <p>
          <button type="button" class="primary" disabled={!image} onClick={generate} data-generate>
            {t('favicon.generate', { count: ICON_FILES.length })}
          </button>
        </p>
      </section>
      <section class="tool-results" aria-labelledby="results-title" hidden={batch.jobs.length === 0}>
        <h2 id="results-title">{t('common.results')}</h2>
        {complete && (
          <>
            <Icons jobs={done} />
            <p>
              <button type="button" class="primary" data-download-all onClick={download}>
                {t('common.downloadAll')}
              </button>
            </p>
            <h3>{t('favicon.links')}</h3>
            <p class="hint">{t('favicon.linksHint')}</p>
            <CodeBlock label={t('favicon.links')} code={links} />
            <h3 translate={false}>site.webmanifest</h3>
            <CodeBlock label="site.webmanifest" code={manifest} />
          </>
        )}
        <Jobs batch={batch} />
      </section>
      <Live text={announcement} />
    </>
  )
}

export function FaviconTool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
  return (
    <SingleImageTool initialFiles={initialFiles}>
      {(image, facts) => <Pack image={image} facts={facts} />}
    </SingleImageTool>
  )
}
