import { useRef, useState } from 'preact/hooks'
import { curlCommand } from '../api/curl.ts'
import { saveBlob } from '../batch/zip.ts'
import { env } from '../env.ts'
import { CodeBlock } from './CodeBlock.tsx'

type Saved<S> = Record<string, S>

const storageKey = (tool: string) => `imgapi-presets-${tool}`

function load<S>(tool: string): Saved<S> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(tool)) ?? '{}')
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Saved<S>) : {}
  } catch {
    return {}
  }
}

interface Props<S> {
  readonly tool: string
  readonly settings: S
  /** The options these settings send, for the curl command. */
  readonly query: URLSearchParams
  /** Brings a saved or imported preset's settings back, dropping what this version cannot read. */
  apply(settings: S): void
}

/**
 * Named settings kept in this browser (localStorage), exported and imported as JSON, and the
 * same settings as a curl command, so what was tried by hand can be scripted.
 */
export function Presets<S>({ tool, settings, query, apply }: Props<S>) {
  const { t, data } = env()
  const [saved, setSaved] = useState<Saved<S>>(() => load<S>(tool))
  const [name, setName] = useState('')
  const [message, setMessage] = useState('')
  const importer = useRef<HTMLInputElement>(null)
  const store = (next: Saved<S>) => {
    localStorage.setItem(storageKey(tool), JSON.stringify(next))
    setSaved(next)
  }
  const names = Object.keys(saved).sort((a, b) => a.localeCompare(b, data.language))
  return (
    <details class="presets">
      <summary>{t('common.presets')}</summary>
      <form
        class="preset-save"
        onSubmit={(event) => {
          event.preventDefault()
          if (!name.trim()) return
          store({ ...saved, [name.trim()]: settings })
          setMessage(t('common.presetSaved', { name: name.trim() }))
          setName('')
        }}
      >
        <label for={`preset-name-${tool}`}>{t('common.presetName')}</label>
        <input
          id={`preset-name-${tool}`}
          type="text"
          value={name}
          maxLength={60}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit">{t('common.presetSave')}</button>
      </form>
      {names.length > 0 && (
        <ul class="preset-list">
          {names.map((preset) => (
            <li key={preset}>
              <button
                type="button"
                class="preset-apply"
                onClick={() => (
                  apply(saved[preset]!),
                  setMessage(t('common.presetApplied', { name: preset }))
                )}
              >
                {preset}
              </button>
              <button
                type="button"
                class="preset-delete"
                aria-label={t('common.presetDelete', { name: preset })}
                onClick={() => {
                  const { [preset]: _, ...rest } = saved
                  store(rest)
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <div class="preset-files">
        <button
          type="button"
          disabled={names.length === 0}
          onClick={() =>
            saveBlob(
              new Blob([JSON.stringify(saved, null, 2)], { type: 'application/json' }),
              `imgapi-${tool}-presets.json`,
            )
          }
        >
          {t('common.presetExport')}
        </button>
        <button type="button" onClick={() => importer.current?.click()}>
          {t('common.presetImport')}
        </button>
        <input
          ref={importer}
          type="file"
          accept="application/json,.json"
          hidden
          onChange={async (event) => {
            const file = event.currentTarget.files?.[0]
            event.currentTarget.value = ''
            if (!file) return
            try {
              const imported = JSON.parse(await file.text()) as unknown
              if (!imported || typeof imported !== 'object' || Array.isArray(imported))
                throw new Error('not an object')
              store({ ...saved, ...(imported as Saved<S>) })
              setMessage(t('common.presetImported', { count: Object.keys(imported).length }))
            } catch {
              setMessage(t('common.presetImportFailed'))
            }
          }}
        />
      </div>
      <p class="hint" role="status">
        {message}
      </p>
      <p class="hint">{t('common.presetCurl')}</p>
      <CodeBlock
        label={t('common.presetCurl')}
        code={curlCommand({ file: 'photo.jpg', query, output: 'result', keyRequired: data.keyRequired })}
      />
    </details>
  )
}
