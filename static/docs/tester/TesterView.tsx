import { useEffect, useRef, useState } from 'preact/hooks'
import { savedKey } from '../../kit/api/key.ts'
import { env } from '../../kit/env.ts'
import { DropZone } from '../../kit/ui/DropZone.tsx'
import { Choices } from '../../kit/ui/fields.tsx'
import { KeyField } from '../../kit/ui/KeyField.tsx'
import { useServer } from '../../kit/ui/use-server.ts'
import { readAnswer, type Answer } from './answer.ts'
import { ENDPOINTS, optionOrder, type EndpointId } from './endpoints.ts'
import { EndpointPicker } from './EndpointPicker.tsx'
import { OverlayField } from './OverlayField.tsx'
import { OptionField, OptionsForm, sentOptions, type OptionValues } from './OptionsForm.tsx'
import { Result } from './Result.tsx'
import { describeRequest, send } from './request.ts'

/**
 * The interactive tester: a real request to this server, and everything about its answer. Built
 * from the tools' components (drop zone, comparison, code blocks, the key field), with a form
 * generated from the option schema and narrowed by GET /api/formats.
 */
export function Tester() {
  const { t, data } = env()
  const server = useServer()
  const [endpoint, setEndpoint] = useState<EndpointId>('compress')
  const [file, setFile] = useState<File>()
  const [overlay, setOverlay] = useState<File>()
  const [values, setValues] = useState<OptionValues>({})
  const [json, setJson] = useState(false)
  const [status, setStatus] = useState('')
  const [answer, setAnswer] = useState<Answer>()
  const heading = useRef<HTMLHeadingElement>(null)
  const fileButton = useRef<HTMLDivElement>(null)
  const formats = server.facts?.formats ?? []
  const setOption = (name: string, value: string) => setValues({ ...values, [name]: value })
  // The image, or its address for the server to fetch: a request takes exactly one.
  const url = (values.url ?? '').trim()
  const bothSources = Boolean(file && url)
  // The answer's heading takes focus, so keyboard and screen reader users land on it.
  useEffect(() => {
    if (answer) heading.current?.focus()
  }, [answer])

  const submit = async (event: Event) => {
    event.preventDefault()
    const chosen = ENDPOINTS.find((e) => e.id === endpoint)!
    if (chosen.id === 'compress' && !file && !url) {
      setStatus(t('site.tester.noFile'))
      fileButton.current?.querySelector<HTMLButtonElement>('.drop-buttons button')?.focus()
      return
    }
    // Said before sending, not left to the server's 400: the reader sees which two to choose from.
    if (chosen.id === 'compress' && bothSources) {
      setStatus(t('site.tester.bothSources'))
      document.getElementById('option-url')?.focus()
      return
    }
    const request = describeRequest(
      { endpoint: chosen, file, overlay, options: sentOptions(values, formats), json, apiKey: savedKey() },
      data.language,
    )
    setStatus(t('site.tester.sending'))
    try {
      setAnswer(await readAnswer(await send(request)))
      setStatus('')
    } catch (error) {
      setAnswer(undefined)
      setStatus(
        t('site.tester.networkError', { message: error instanceof Error ? error.message : String(error) }),
      )
    }
  }

  return (
    <>
      <KeyField onSaved={server.reload} />
      <form
        class="tester"
        data-tester
        data-ready={server.facts || server.failed ? 'true' : undefined}
        onSubmit={submit}
      >
        <EndpointPicker value={endpoint} onChange={setEndpoint} />
        <div class="compress-fields" data-for-endpoint="compress" hidden={endpoint !== 'compress'}>
          <div class="tester-file" ref={fileButton}>
            <DropZone single compact={Boolean(file)} onFiles={(picked) => setFile(picked[0]!.file as File)} />
            <p class="file-info" aria-live="polite">
              {file && <ChosenFile file={file} onRemove={() => setFile(undefined)} />}
            </p>
            <div class="tester-source">
              <p class="hint">{t('site.tester.urlLead')}</p>
              {optionOrder(Object.keys(data.options)).source.map((name) => (
                <OptionField key={name} name={name} values={values} formats={formats} onChange={setOption} />
              ))}
            </div>
            {bothSources && (
              <p class="notice" data-both-sources>
                {t('site.tester.bothSources')}
              </p>
            )}
          </div>
          <OverlayField file={overlay} onChange={setOverlay} />
          <OptionsForm values={values} formats={formats} onChange={setOption} />
          <Choices
            legend={t('site.tester.responseAs')}
            name="accept"
            class="accept"
            value={json ? 'json' : 'image'}
            choices={[
              { value: 'image', label: t('site.tester.asImage') },
              {
                value: 'json',
                label: t('site.tester.asJson'),
                hint: <code translate={false}>Accept: application/json</code>,
              },
            ]}
            onChange={(value) => setJson(value === 'json')}
          />
        </div>
        <p class="actions">
          <button type="submit" class="primary" data-send>
            {t('site.tester.send')}
          </button>{' '}
          <span class="status-text" role="status">
            {status}
          </span>
        </p>
      </form>
      <section class="result" data-result aria-labelledby="result-title" hidden={!answer}>
        <h2 id="result-title" tabIndex={-1} ref={heading}>
          {t('site.tester.result')}
        </h2>
        {answer && <Result answer={answer} />}
      </section>
    </>
  )
}

/**
 * "Image: photo.jpg, 134 KiB", name and size isolated: a Latin name must not reorder a Persian
 * line; and a way to take it back, for a request that names its image by url instead.
 */
function ChosenFile({ file, onRemove }: { file: File; onRemove(): void }) {
  const { t, numbers } = env()
  const parts = { '\u0000': file.name, '\u0001': numbers.bytes(file.size) }
  const line = t('site.tester.fileChosen', { name: '\u0000', size: '\u0001' })
  return (
    <>
      {t('common.chosenFile')}{' '}
      {line.split(/([\u0000\u0001])/).map((part, i) =>
        part in parts ? (
          <bdi key={i} translate={part === '\u0000' ? false : undefined}>
            {parts[part as keyof typeof parts]}
          </bdi>
        ) : (
          part
        ),
      )}{' '}
      <button type="button" class="remove-file" onClick={onRemove}>
        {t('site.tester.removeFile')}
      </button>
    </>
  )
}
