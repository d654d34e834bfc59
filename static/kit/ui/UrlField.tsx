import { useState } from 'preact/hooks'
import { env } from '../env.ts'

/**
 * Why an address cannot be sent as the option url, in the page's words; undefined when it can.
 * Only what every server refuses is caught here (not an absolute http or https URL, longer than
 * the option's schema allows): which hosts may be fetched is the server's to judge.
 */
export function urlProblem(text: string, maxLength: number | undefined): string | undefined {
  const { t, numbers } = env()
  const url = URL.canParse(text) ? new URL(text) : undefined
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return t('common.urlInvalid')
  if (maxLength !== undefined && text.length > maxLength)
    return t('common.urlTooLong', { max: numbers.integer(maxLength) })
  return undefined
}

/**
 * "From a URL": an image's address joins the batch with Add or Enter. The server fetches it (the
 * option url), so nothing is uploaded, and the page never connects to the image's origin (its
 * Content-Security-Policy would not let it). No maxlength on the input: a long address pasted
 * in would be cut short without a word, and sent as another address.
 */
export function UrlField({ onUrl, disabled }: { onUrl(url: string): void; disabled?: boolean }) {
  const { t, data } = env()
  const [value, setValue] = useState('')
  const [error, setError] = useState('')
  const facts = data.options.url
  const add = (event: Event) => {
    event.preventDefault()
    const url = value.trim()
    const problem = urlProblem(url, facts?.kind === 'text' ? facts.maxLength : undefined)
    setError(problem ?? '')
    if (problem) return
    setValue('')
    onUrl(url)
  }
  return (
    <form class="url-source" onSubmit={add} noValidate>
      <label for="source-url">{t('common.fromUrl')}</label>
      <input
        id="source-url"
        type="url"
        inputMode="url"
        dir="ltr"
        autoComplete="off"
        spellcheck={false}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby="source-url-error source-url-hint"
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit" disabled={disabled}>
        {t('common.urlAdd')}
      </button>
      <p class="url-error" id="source-url-error" aria-live="polite">
        {error}
      </p>
      <p class="hint" id="source-url-hint">
        {t(data.urlSources === 'allowlist' ? 'common.urlHintAllowlist' : 'common.urlHintPublic')}
      </p>
    </form>
  )
}
