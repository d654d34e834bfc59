import { formatName } from '../../kit/api/format-name.ts'
import { outputFormats, type ServerFacts } from '../../kit/api/server.ts'
import { env } from '../../kit/env.ts'
import { batchTool, type SettingsForm } from '../../kit/ui/BatchTool.tsx'
import { ColourField } from '../../kit/ui/fields.tsx'
import { defaultIcoSizes, IcoSizes } from './ico-sizes.tsx'
import { qualityOptions, QualityFields } from './quality.tsx'

export interface ConvertSettings {
  readonly format: string
  /** More formats every image is made in besides `format`, from one upload. */
  readonly also: readonly string[]
  readonly background: string
  readonly quality: string
  readonly qualityNumber: number
  /** With ICO: the sizes it holds, comma-separated; empty for the API's default. */
  readonly icoSizes: string
}

const DEFAULTS: ConvertSettings = {
  format: 'webp',
  also: [],
  background: '#ffffff',
  quality: '',
  qualityNumber: 80,
  icoSizes: '',
}

/** An icon is a set of fixed-size PNGs: quality does not apply, its sizes do. */
const ICO = 'ico'

/** Every format chosen, the main one first, each once, each one this server writes. */
function chosenFormats(settings: ConvertSettings, facts: ServerFacts | undefined): string[] {
  // A preset from elsewhere may hold anything: only names of output formats are kept.
  const also = Array.isArray(settings.also) ? settings.also : []
  const writes = (id: string) => !facts || outputFormats(facts).some((f) => f.id === id)
  return [...new Set([settings.format, ...also])].filter((id) => typeof id === 'string' && writes(id))
}

/** The options of one output format, with `background` as all the formats chosen need it. */
function formatQuery(
  settings: ConvertSettings,
  format: string,
  formats: readonly string[],
  facts: ServerFacts | undefined,
): URLSearchParams {
  const query = new URLSearchParams({ format })
  if (format !== ICO) qualityOptions(settings, query)
  else if (settings.icoSizes && settings.icoSizes !== defaultIcoSizes())
    query.set('icoSizes', settings.icoSizes)
  // Transparency is flattened onto this colour only where the output cannot keep it; several
  // formats share it, so it goes with each of them when one needs it.
  const flattens = formats.some((id) => facts?.formats.find((f) => f.id === id)?.alpha === false)
  if (flattens && settings.background !== '#ffffff') query.set('background', settings.background)
  return query
}

function convertQuery(settings: ConvertSettings, facts: ServerFacts | undefined): URLSearchParams {
  return formatQuery(settings, settings.format, [settings.format], facts)
}

/** With more formats: one output each, the image uploaded once. */
function convertOutputs(settings: ConvertSettings, facts: ServerFacts): URLSearchParams[] | undefined {
  const formats = chosenFormats(settings, facts)
  if (formats.length < 2) return undefined
  return formats.map((format) => formatQuery(settings, format, formats, facts))
}

const mark = (yes: boolean) => {
  const { t } = env()
  return (
    <span class={yes ? 'yes' : 'no'}>
      <span aria-hidden="true">{yes ? '✓' : '–'}</span>
      <span class="visually-hidden">{yes ? t('convert.yes') : t('convert.no')}</span>
    </span>
  )
}

/** What this server reads and writes, from GET /api/formats: the reader picks the output here. */
function Matrix({
  facts,
  format,
  onChoose,
}: {
  facts: ServerFacts
  format: string
  onChoose(format: string): void
}) {
  const { t } = env()
  return (
    <div class="table-scroll" role="region" tabIndex={0} aria-labelledby="matrix-caption">
      <table class="matrix">
        <caption id="matrix-caption">{t('convert.matrix')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('convert.format')}</th>
            <th scope="col">{t('convert.reads')}</th>
            <th scope="col">{t('convert.writes')}</th>
            <th scope="col">{t('convert.animation')}</th>
            <th scope="col">{t('convert.transparency')}</th>
          </tr>
        </thead>
        <tbody>
          {facts.formats.map((f) => (
            <tr key={f.id} class={f.id === format ? 'chosen' : undefined}>
              <th scope="row">
                {f.output ? (
                  <label class="matrix-choice">
                    <input
                      type="radio"
                      name="convert-format"
                      value={f.id}
                      checked={f.id === format}
                      onChange={() => onChoose(f.id)}
                    />
                    <span translate={false}>{formatName(f.id)}</span>
                  </label>
                ) : (
                  <span translate={false}>{formatName(f.id)}</span>
                )}
              </th>
              <td>{mark(f.input)}</td>
              <td>{mark(f.output)}</td>
              <td>{mark(f.output && f.animated)}</td>
              <td>{mark(f.alpha)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** The other output formats, as chips: each image is made in each one ticked too. */
function AlsoFormats({
  settings,
  set,
  facts,
}: {
  settings: ConvertSettings
  set(next: Partial<ConvertSettings>): void
  facts: ServerFacts
}) {
  const { t } = env()
  const chosen = chosenFormats(settings, facts)
  return (
    <fieldset class="choices chips also-formats">
      <legend>{t('convert.alsoFormats')}</legend>
      {outputFormats(facts)
        .filter((f) => f.id !== settings.format)
        .map((f) => (
          <label key={f.id} class="chip">
            <input
              type="checkbox"
              name="convert-also"
              value={f.id}
              checked={chosen.includes(f.id)}
              onChange={(e) =>
                set({
                  also: outputFormats(facts)
                    .map((each) => each.id)
                    .filter((id) => (id === f.id ? e.currentTarget.checked : chosen.slice(1).includes(id))),
                })
              }
            />
            <span translate={false}>{formatName(f.id)}</span>
          </label>
        ))}
      <p class="hint">{t('convert.alsoFormatsHint')}</p>
    </fieldset>
  )
}

const ConvertSettingsForm: SettingsForm<ConvertSettings> = ({ settings, set, facts }) => {
  const { t } = env()
  const target = outputFormats(facts).find((f) => f.id === settings.format)
  // The first chosen format that has no transparency: the background is for it.
  const flattened = chosenFormats(settings, facts)
    .map((id) => outputFormats(facts).find((f) => f.id === id))
    .find((f) => f && !f.alpha)
  return (
    <>
      <Matrix facts={facts} format={settings.format} onChoose={(format) => set({ format })} />
      <AlsoFormats settings={settings} set={set} facts={facts} />
      {target && (
        <p class="hint">
          {target.animated
            ? t('convert.keepsAnimation', { format: formatName(target.id) })
            : t('convert.firstFrame', { format: formatName(target.id) })}
        </p>
      )}
      {flattened && (
        <ColourField
          id="background"
          label={t('convert.background')}
          hint={t('convert.backgroundHint', { format: formatName(flattened.id) })}
          value={settings.background}
          onChange={(background) => set({ background })}
        />
      )}
      {settings.format === ICO ? (
        <IcoSizes value={settings.icoSizes || defaultIcoSizes()} onChange={(icoSizes) => set({ icoSizes })} />
      ) : (
        <QualityFields settings={settings} format={settings.format} facts={facts} onChange={set} />
      )}
    </>
  )
}

export const ConvertTool = batchTool({
  tool: 'convert',
  defaults: DEFAULTS,
  commonQuery: convertQuery,
  outputsOf: convertOutputs,
  fromUrl: true,
  Form: ConvertSettingsForm,
})
