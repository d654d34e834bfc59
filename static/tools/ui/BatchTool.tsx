import type { ComponentChildren, ComponentType } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { Problem } from '../api/problem.ts'
import type { ServerFacts } from '../api/server.ts'
import type { Job } from '../batch/engine.ts'
import { looksReadable, type PickedFile } from '../batch/files.ts'
import { env } from '../env.ts'
import { restoreSettings } from '../tools/restore.ts'
import { CompareResult } from './Compare.tsx'
import { DropZone } from './DropZone.tsx'
import { Jobs } from './Jobs.tsx'
import { Live } from './fields.tsx'
import { KeyField } from './KeyField.tsx'
import { Presets } from './Presets.tsx'
import { Summary } from './Summary.tsx'
import { useBatch } from './use-batch.ts'
import { useServer } from './use-server.ts'

export interface BatchToolProps<S> {
  /** Names the presets' storage and the ZIP. */
  readonly tool: string
  readonly settings: S
  setSettings(settings: S): void
  /** Settings from a preset, made safe: what this version does not know is dropped. */
  restore(saved: unknown): S
  renderSettings(facts: ServerFacts): ComponentChildren
  /**
   * The options one file is sent with; a tool may read the file first (its size, say), and
   * refuse it with a Problem when the options cannot be worked out.
   */
  queryOf(
    settings: S,
    file: PickedFile,
    facts: ServerFacts,
  ): URLSearchParams | Problem | Promise<URLSearchParams | Problem>
  /** The options as a batch-wide query, for the curl and folder commands. */
  commonQuery(settings: S, facts: ServerFacts | undefined): URLSearchParams
  readonly initialFiles?: readonly PickedFile[]
}

/**
 * The frame Compress, Resize and Convert share: settings, the drop zone, every file's progress
 * and result, the comparison of the chosen one, totals and downloads. A tool brings only its
 * settings and how they become options.
 */
export function BatchTool<S>(props: BatchToolProps<S>) {
  const { t } = env()
  const server = useServer()
  const { batch, announcement } = useBatch(server.facts)
  const [selected, setSelected] = useState<Job>()
  const [skipped, setSkipped] = useState(0)
  const [appliedQuery, setAppliedQuery] = useState('')
  const query = useMemo(() => props.commonQuery(props.settings, server.facts), [props.settings, server.facts])
  const readable = useMemo(
    () => new Set(server.facts?.formats.filter((f) => f.input).flatMap((f) => f.extensions) ?? []),
    [server.facts],
  )

  // Files given before the server's facts arrive wait for them.
  const [held, setHeld] = useState<readonly PickedFile[]>(props.initialFiles ?? [])
  const start = async (files: readonly PickedFile[]) => {
    const facts = server.facts
    if (!facts) return setHeld((before) => [...before, ...files])
    const images = files.filter((picked) => looksReadable(picked.file, readable))
    setSkipped(files.length - images.length)
    const inputs = await Promise.all(
      images.map(async (picked) => {
        const query = await props.queryOf(props.settings, picked, facts)
        return query instanceof URLSearchParams
          ? { file: picked.file, path: picked.path, query }
          : { file: picked.file, path: picked.path, query: new URLSearchParams(), refused: query }
      }),
    )
    setAppliedQuery(query.toString())
    batch.add(inputs)
  }
  useEffect(() => {
    if (!server.facts || held.length === 0) return
    setHeld([])
    void start(held)
  }, [server.facts])

  const rerun = () => {
    const files = batch.jobs.map((job) => ({ file: job.file as File, path: job.path }))
    batch.clear()
    setSelected(undefined)
    void start(files)
  }
  const changed = batch.jobs.length > 0 && appliedQuery !== query.toString()
  return (
    <>
      <KeyField onSaved={server.reload} />
      {server.failed && <p class="notice error">{t('common.serverFailed')}</p>}
      <div class={`tool-layout${batch.jobs.length > 0 ? ' has-jobs' : ''}`}>
        <div class="tool-drop">
          <DropZone onFiles={start} compact={batch.jobs.length > 0} />
          {skipped > 0 && <p class="notice">{t('common.skipped', { count: skipped })}</p>}
        </div>
        <section class="tool-settings" aria-labelledby="settings-title">
          <h2 id="settings-title">{t('common.settings')}</h2>
          {server.facts ? props.renderSettings(server.facts) : <p class="hint">{t('common.loading')}</p>}
          {changed && (
            <p class="rerun">
              <button type="button" class="primary" onClick={rerun}>
                {t('common.rerun')}
              </button>
            </p>
          )}
          <Presets
            tool={props.tool}
            settings={props.settings}
            query={query}
            apply={(saved) => props.setSettings(props.restore(saved))}
          />
        </section>
        <section class="tool-results" aria-labelledby="results-title" hidden={batch.jobs.length === 0}>
          <h2 id="results-title">{t('common.results')}</h2>
          <Summary batch={batch} query={query} zipName={`imgapi-${props.tool}.zip`} />
          <Jobs
            batch={batch}
            selected={selected?.id}
            onCompare={(job) => setSelected(job.id === selected?.id ? undefined : job)}
          />
          {selected?.result && (
            <section class="compare-section" aria-labelledby="compare-title">
              <h3 id="compare-title" dir="auto">
                {t('common.compareTitle', { name: selected.path })}
              </h3>
              <CompareResult
                before={{ blob: selected.file, format: selected.result.originalFormat }}
                result={selected.result}
              />
            </section>
          )}
        </section>
      </div>
      <Live text={announcement} />
    </>
  )
}

/** A settings form: the settings, a way to change some of them, and the server's facts. */
export type SettingsForm<S> = ComponentType<{ settings: S; set(next: Partial<S>): void; facts: ServerFacts }>

/** A batch tool from its settings: their defaults, how they become options, and their form. */
export function batchTool<S extends object>(spec: {
  tool: string
  defaults: S
  commonQuery(settings: S, facts: ServerFacts | undefined): URLSearchParams
  queryOf?: BatchToolProps<S>['queryOf']
  Form: SettingsForm<S>
}) {
  return function Tool({ initialFiles }: { initialFiles?: readonly PickedFile[] }) {
    const [settings, setSettings] = useState(spec.defaults)
    return (
      <BatchTool<S>
        tool={spec.tool}
        settings={settings}
        setSettings={setSettings}
        restore={(saved) => restoreSettings(spec.defaults, saved)}
        initialFiles={initialFiles}
        commonQuery={spec.commonQuery}
        queryOf={spec.queryOf ?? ((s, _file, facts) => spec.commonQuery(s, facts))}
        renderSettings={(facts) => (
          <spec.Form
            settings={settings}
            facts={facts}
            set={(next) => setSettings({ ...settings, ...next })}
          />
        )}
      />
    )
  }
}
