import type { ComponentChildren, ComponentType } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import type { Problem } from '../api/problem.ts'
import { extensionOf, type ServerFacts } from '../api/server.ts'
import type { Batch, Job, JobInput } from '../batch/engine.ts'
import { looksReadable, urlFileName, type PickedFile } from '../batch/files.ts'
import { resultPath } from '../batch/result.ts'
import { env } from '../env.ts'
import { restoreSettings } from './restore.ts'
import { CompareResult } from './Compare.tsx'
import { DropZone } from './DropZone.tsx'
import { Jobs } from './Jobs.tsx'
import { Live } from './fields.tsx'
import { KeyField } from './KeyField.tsx'
import { Presets } from './Presets.tsx'
import { JobResultAlone } from './ResultAlone.tsx'
import { Summary } from './Summary.tsx'
import { UrlField } from './UrlField.tsx'
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
  /**
   * Several outputs of every file (Convert to several formats), each as its request alone
   * would send it; none, or one, for one output a file. A file's outputs are sent together: the
   * file is uploaded once. Only for tools whose options do not read the file.
   */
  outputsOf?(settings: S, facts: ServerFacts): readonly URLSearchParams[] | undefined
  /** What the tool says on a file's card about its result, and offers to do about it. */
  resultNote?(job: Job, batch: Batch): ComponentChildren
  readonly initialFiles?: readonly PickedFile[]
  /**
   * Offer "From a URL": images the server fetches, sent with the batch-wide options. Only for
   * tools whose options do not read the file (queryOf), which this page never has for them.
   */
  readonly fromUrl?: boolean
}

/**
 * The frame Compress, Resize and Convert share: settings, the drop zone, every file's progress
 * and result, the comparison of the chosen one, totals and downloads. A tool brings only its
 * settings and how they become options.
 */
export function BatchTool<S>(props: BatchToolProps<S>) {
  const { t, data } = env()
  const server = useServer()
  const { batch, announcement } = useBatch(server.facts)
  const [selected, setSelected] = useState<Job>()
  const [skipped, setSkipped] = useState(0)
  const [appliedQuery, setAppliedQuery] = useState('')
  const query = useMemo(() => props.commonQuery(props.settings, server.facts), [props.settings, server.facts])
  const outputs = useMemo(
    () => (server.facts && props.outputsOf?.(props.settings, server.facts)) || [],
    [props.settings, server.facts],
  )
  // What the results were made with: the options, and each output's when there are several.
  const applied = [query, ...outputs].map(String).join('&&')
  /** One job for the file or address, or one per output, sent together. */
  const jobsOf = (source: { file?: File; url?: string; path: string }, facts: ServerFacts): JobInput[] =>
    outputs.length > 1
      ? outputs.map((output) => ({
          ...source,
          query: new URLSearchParams(output),
          together: true,
          label: resultPath(source.path, output, extensionOf(facts, output.get('format') ?? '')),
        }))
      : [{ ...source, query: new URLSearchParams(query) }]
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
      images.map(async (picked): Promise<JobInput[]> => {
        if (outputs.length > 1) return jobsOf(picked, facts)
        const query = await props.queryOf(props.settings, picked, facts)
        return query instanceof URLSearchParams
          ? [{ file: picked.file, path: picked.path, query }]
          : [{ file: picked.file, path: picked.path, query: new URLSearchParams(), refused: query }]
      }),
    )
    setAppliedQuery(applied)
    batch.add(inputs.flat())
  }
  useEffect(() => {
    if (!server.facts || held.length === 0) return
    setHeld([])
    void start(held)
  }, [server.facts])

  const addUrl = (url: string) => {
    if (!server.facts) return
    setAppliedQuery(applied)
    batch.add(jobsOf({ url, path: urlFileName(url) }, server.facts))
  }

  const rerun = () => {
    // A file made in several formats is in the list once per format: it is sent again once.
    const sent = [...new Map(batch.jobs.map((job) => [job.file ?? job.url, job])).values()]
    const files = sent.flatMap((job) => (job.file ? [{ file: job.file as File, path: job.path }] : []))
    const urls = sent.flatMap((job) => (job.url ? [job.url] : []))
    batch.clear()
    setSelected(undefined)
    void start(files).then(() => urls.forEach(addUrl))
  }
  const changed = batch.jobs.length > 0 && appliedQuery !== applied
  return (
    <>
      <KeyField onSaved={server.reload} />
      {server.failed && <p class="notice error">{t('common.serverFailed')}</p>}
      <div class={`tool-layout${batch.jobs.length > 0 ? ' has-jobs' : ''}`}>
        <div class="tool-drop">
          <DropZone onFiles={start} compact={batch.jobs.length > 0} />
          {props.fromUrl && data.urlSources !== 'off' && <UrlField onUrl={addUrl} disabled={!server.facts} />}
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
            note={props.resultNote && ((job) => props.resultNote!(job, batch))}
          />
          {selected?.result && (
            <section class="compare-section" aria-labelledby="compare-title">
              <h3 id="compare-title">
                {t(selected.file ? 'common.compareTitle' : 'common.resultTitle', { name: selected.path })}
              </h3>
              {selected.file ? (
                <CompareResult
                  before={{ blob: selected.file, format: selected.result.originalFormat }}
                  result={selected.result}
                />
              ) : (
                <JobResultAlone result={selected.result} />
              )}
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

/**
 * A batch tool from its settings: their defaults, how they become options, and their form. A
 * tool that works options out from each file (queryOf) cannot take images from a URL, which the
 * page never holds: the two exclude each other.
 */
export function batchTool<S extends object>(
  spec: {
    tool: string
    defaults: S
    commonQuery(settings: S, facts: ServerFacts | undefined): URLSearchParams
    outputsOf?: BatchToolProps<S>['outputsOf']
    resultNote?: BatchToolProps<S>['resultNote']
    Form: SettingsForm<S>
  } & ({ queryOf?: BatchToolProps<S>['queryOf']; fromUrl?: false } | { queryOf?: never; fromUrl: true }),
) {
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
        outputsOf={spec.outputsOf}
        queryOf={spec.queryOf ?? ((s, _file, facts) => spec.commonQuery(s, facts))}
        resultNote={spec.resultNote}
        fromUrl={spec.fromUrl}
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
