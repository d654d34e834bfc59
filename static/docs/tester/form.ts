import type { TFunction } from 'i18next'
import { numberFormats } from '../../../src/docs/numbers.ts'
import { findFormat, tunableOptions, type PublishedFormat } from './formats.ts'

/** The tester form: which endpoint is chosen, and which options apply to the chosen format. */
export interface TesterForm {
  readonly form: HTMLFormElement
  endpoint(): { id: string; method: string; path: string }
  file(): File | undefined
  /** The watermark chosen, if any: sent as the file field `overlay`. */
  overlay(): File | undefined
  /** Options with a value, in the order the form lists them; fields that do not apply are left out. */
  options(): [string, string][]
  wantsJson(): boolean
  /** The API key typed in, when this server asks for one. */
  apiKey(): string | undefined
}

function fieldFor(form: HTMLFormElement, name: string) {
  return form.querySelector<HTMLElement>(`[data-option="${name}"]`)
}

/** Narrows each option to what the chosen output accepts on this server, and says so. */
export function applyFormat(
  form: HTMLFormElement,
  tunable: readonly string[],
  format: PublishedFormat | undefined,
  t: TFunction,
  language: string,
): void {
  const numbers = numberFormats(language)
  for (const name of tunable) {
    const field = fieldFor(form, name)
    const control = field?.querySelector<HTMLInputElement | HTMLSelectElement>('input, select')
    const note = field?.querySelector<HTMLElement>('[data-range]')
    if (!field || !control || !note) continue
    if (control instanceof HTMLInputElement) {
      // Back to what the server rendered: the widest range, no format's default.
      control.min = control.dataset.min ??= control.min
      control.max = control.dataset.max ??= control.max
      control.removeAttribute('placeholder')
    }
    const tunable = format?.tunables[name]
    const applies = !format || tunable !== undefined
    control.disabled = !applies
    field.classList.toggle('not-applicable', !applies)
    note.textContent = applies ? '' : t('site.tester.notForFormat', { format: format!.id })
    if (
      control instanceof HTMLInputElement &&
      tunable &&
      tunable.min !== undefined &&
      tunable.max !== undefined
    ) {
      control.min = String(tunable.min)
      control.max = String(tunable.max)
      control.placeholder = String(tunable.default)
      note.textContent = t('site.tester.rangeHint', {
        min: numbers.integer(tunable.min),
        max: numbers.integer(tunable.max),
        default: numbers.integer(Number(tunable.default)),
      })
    }
  }
}

const KEY_STORAGE = 'imgapi-api-key'

/** The key typed earlier in this tab, if any. */
export function storedApiKey(): string | undefined {
  return sessionStorage.getItem(KEY_STORAGE) || undefined
}

/** The key survives reloads of this tab, and nothing else: sessionStorage, never a cookie. */
function keepKeyForTheSession(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('[data-api-key]')
  if (!input) return
  input.value = storedApiKey() ?? ''
  input.addEventListener('change', () => sessionStorage.setItem(KEY_STORAGE, input.value.trim()))
}

export function bindForm(
  form: HTMLFormElement,
  formats: readonly PublishedFormat[],
  t: TFunction,
  language: string,
): TesterForm {
  const radios = [...form.querySelectorAll<HTMLInputElement>('input[name="endpoint"]')]
  const chosen = () => radios.find((r) => r.checked) ?? radios[radios.length - 1]!
  const showFields = () => {
    for (const group of form.querySelectorAll<HTMLElement>('[data-for-endpoint]'))
      group.hidden = group.dataset.forEndpoint !== chosen().value
  }
  const formatSelect = form.querySelector<HTMLSelectElement>('select[name="format"]')
  const tunable = tunableOptions(formats)
  const refreshFormat = () =>
    applyFormat(form, tunable, findFormat(formats, formatSelect?.value ?? ''), t, language)
  for (const radio of radios) radio.addEventListener('change', showFields)
  formatSelect?.addEventListener('change', refreshFormat)
  showFields()
  refreshFormat()
  keepKeyForTheSession(form)
  return {
    form,
    endpoint: () => ({ id: chosen().value, method: chosen().dataset.method!, path: chosen().dataset.path! }),
    file: () => form.querySelector<HTMLInputElement>('input[name="file"]')?.files?.[0],
    overlay: () => form.querySelector<HTMLInputElement>('input[name="overlay"]')?.files?.[0],
    options: () =>
      [
        ...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>(
          '[data-option] input, [data-option] select',
        ),
      ]
        .filter((control) => !control.disabled && control.value.trim() !== '')
        .map((control) => [control.name, control.value.trim()]),
    wantsJson: () => form.querySelector<HTMLInputElement>('input[name="accept"]:checked')?.value === 'json',
    apiKey: () => form.querySelector<HTMLInputElement>('[data-api-key]')?.value.trim() || undefined,
  }
}
