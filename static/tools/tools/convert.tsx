import { formatName } from '../api/format-name.ts'
import { outputFormats, type ServerFacts } from '../api/server.ts'
import { env } from '../env.ts'
import { batchTool, type SettingsForm } from '../ui/BatchTool.tsx'
import { ColourField } from '../ui/fields.tsx'
import { defaultIcoSizes, IcoSizes } from './ico-sizes.tsx'
import { qualityOptions, QualityFields } from './quality.tsx'

export interface ConvertSettings {
  readonly format: string
  readonly background: string
  readonly quality: string
  readonly qualityNumber: number
  /** With ICO: the sizes it holds, comma-separated; empty for the API's default. */
  readonly icoSizes: string
}

const DEFAULTS: ConvertSettings = {
  format: 'webp',
  background: '#ffffff',
  quality: '',
  qualityNumber: 80,
  icoSizes: '',
}

/** An icon is a set of fixed-size PNGs: quality does not apply, its sizes do. */
const ICO = 'ico'

function convertQuery(settings: ConvertSettings, facts: ServerFacts | undefined): URLSearchParams {
  const query = new URLSearchParams({ format: settings.format })
  if (settings.format !== ICO) qualityOptions(settings, query)
  else if (settings.icoSizes && settings.icoSizes !== defaultIcoSizes())
    query.set('icoSizes', settings.icoSizes)
  // Transparency is flattened onto this colour only where the output cannot keep it.
  const target = facts?.formats.find((f) => f.id === settings.format)
  if (target && !target.alpha && settings.background !== '#ffffff')
    query.set('background', settings.background)
  return query
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

const ConvertSettingsForm: SettingsForm<ConvertSettings> = ({ settings, set, facts }) => {
  const { t } = env()
  const target = outputFormats(facts).find((f) => f.id === settings.format)
  return (
    <>
      <Matrix facts={facts} format={settings.format} onChoose={(format) => set({ format })} />
      {target && (
        <p class="hint">
          {target.animated
            ? t('convert.keepsAnimation', { format: formatName(target.id) })
            : t('convert.firstFrame', { format: formatName(target.id) })}
        </p>
      )}
      {target && !target.alpha && (
        <ColourField
          id="background"
          label={t('convert.background')}
          hint={t('convert.backgroundHint', { format: formatName(target.id) })}
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
  Form: ConvertSettingsForm,
})
