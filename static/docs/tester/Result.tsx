import { useEffect, useMemo } from 'preact/hooks'
import { numberFormats } from '../../../src/docs/numbers.ts'
import { KEY_VARIABLE } from '../../kit/api/curl.ts'
import { env } from '../../kit/env.ts'
import { CodeBlock } from '../../kit/ui/CodeBlock.tsx'
import { Compare } from '../../kit/ui/Compare.tsx'
import { ResultAlone } from '../../kit/ui/ResultAlone.tsx'
import type { Answer, AnswerImage } from './answer.ts'
import { curlCommand } from './curl.ts'
import { ProblemNotice, type Problem } from './ProblemNotice.tsx'
import { resultFacts } from './summary.ts'

/** A JSON body shown pretty, with a long data: URL shortened: the picture is shown instead. */
function prettyJson(value: unknown): string {
  return JSON.stringify(
    value,
    (key, v) =>
      key === 'data' && typeof v === 'string' && v.length > 120 ? `${v.slice(0, 60)}… (${v.length})` : v,
    2,
  )
}

/** Everything about one answer: status, error, image, headers, body and the same request with curl. */
export function Result({ answer }: { answer: Answer }) {
  const { t, data } = env()
  const { exchange, json, image } = answer
  const { response, request } = exchange
  const isProblem = (response.headers.get('content-type') ?? '').startsWith('application/problem+json')
  // Latin digits, as the status code beside them: one line, one set of digits.
  const latin = numberFormats(data.language, 'latin')
  return (
    <>
      <p class={`status-line status-${String(response.status)[0]}xx`}>
        {t('site.tester.statusLine', {
          status: String(response.status),
          statusText: response.statusText,
          ms: latin.milliseconds(exchange.ms),
        })}
      </p>
      {json && isProblem && <ProblemNotice problem={json as Problem} />}
      {image && <ImageAnswer answer={answer} image={image} />}
      <h3>{t('site.tester.headers')}</h3>
      <div class="table-scroll" tabIndex={0} role="region" aria-label={t('site.tester.headers')}>
        <table class="headers">
          <tbody>
            {[...response.headers].map(([name, value]) => (
              <tr key={name}>
                <th scope="row" translate={false}>
                  {name}
                </th>
                <td dir="ltr" translate={false}>
                  {value}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {json && (
        <>
          <h3>{t('site.tester.body')}</h3>
          <pre dir="ltr" translate={false} class="json" tabIndex={0}>
            <code>{prettyJson(json)}</code>
          </pre>
        </>
      )}
      <h3>{t('site.tester.curl')}</h3>
      <CodeBlock
        wrap
        label={t('site.tester.curl')}
        // An image answer is saved under its name; a JSON one is printed.
        code={curlCommand(request, image && !json ? image.filename : undefined)}
      />
      {request.apiKey && (
        <p class="hint">
          {t('site.tester.keyInCurl', { variable: KEY_VARIABLE })}{' '}
          <code translate={false}>{`export ${KEY_VARIABLE}='…'`}</code>
        </p>
      )}
    </>
  )
}

/**
 * What the server chose, up front (quality, similarity, encodes tried), then before and after
 * in the tools' comparison, and the download. An image the server fetched from the url is
 * shown alone, with the server's figures for the original: the page never fetches it itself.
 */
function ImageAnswer({ answer, image }: { answer: Answer; image: AnswerImage }) {
  const { t, data } = env()
  const facts = resultFacts(answer.exchange.response.headers, answer.json)
  const latin = numberFormats(data.language, 'latin')
  const items: [string, string][] = []
  if (facts.quality !== undefined) items.push([t('site.tester.quality'), latin.integer(facts.quality)])
  if (facts.similarity)
    items.push([
      t('site.tester.similarity'),
      `${facts.similarity.metric.toUpperCase()} ${latin.score(facts.similarity.score)}`,
    ])
  if (facts.encodes !== undefined) items.push([t('site.tester.encodes'), latin.integer(facts.encodes)])
  const url = useMemo(() => URL.createObjectURL(image.blob), [image.blob])
  useEffect(() => () => URL.revokeObjectURL(url), [url])
  const file = answer.exchange.request.file
  const after = { blob: image.blob, format: image.format, width: image.width, height: image.height }
  return (
    <>
      {items.length > 0 && (
        <dl class="result-summary">
          {items.map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd dir="ltr">{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {file ? (
        <Compare before={{ blob: file, format: image.originalFormat }} after={after} />
      ) : (
        <ResultAlone before={{ bytes: image.originalSize, format: image.originalFormat }} after={after} />
      )}
      <p>
        <a class="button" href={url} download={image.filename}>
          {t('site.tester.download', { name: image.filename })}
        </a>
      </p>
    </>
  )
}
