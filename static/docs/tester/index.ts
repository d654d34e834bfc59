import type { TFunction } from 'i18next'
import { setUpCopyButtons } from '../copy.ts'
import type { PageData } from '../page-data.ts'
import { setUpDropzone } from './dropzone.ts'
import { bindForm, storedApiKey } from './form.ts'
import { fetchFormats } from './formats.ts'
import { describeRequest, send } from './request.ts'
import { renderExchange } from './result.ts'

/** The interactive tester: a real request to this server, and everything about its answer. */
export async function setUpTester(data: PageData, t: TFunction): Promise<void> {
  const formElement = document.querySelector<HTMLFormElement>('form[data-tester]')
  const result = document.querySelector<HTMLElement>('[data-result]')
  const resultBody = document.querySelector<HTMLElement>('[data-result-body]')
  const status = document.querySelector<HTMLElement>('[data-status]')
  if (!formElement || !result || !resultBody || !status) return
  const form = bindForm(formElement, await fetchFormats(storedApiKey()), t, data.language)
  const zone = formElement.querySelector<HTMLElement>('[data-dropzone]')
  const input = formElement.querySelector<HTMLInputElement>('input[type="file"]')
  if (zone && input) setUpDropzone(zone, input, t, data.language)
  formElement.dataset.ready = 'true'

  formElement.addEventListener('submit', async (event) => {
    event.preventDefault()
    const request = describeRequest(form, data.language)
    if (form.endpoint().id === 'compress' && !request.file) {
      status.textContent = t('site.tester.noFile')
      input?.focus()
      return
    }
    status.textContent = t('site.tester.sending')
    try {
      const exchange = await send(request)
      resultBody.replaceChildren(
        ...(await renderExchange(exchange, t, data.language, data.referencePath ?? '/docs/reference')),
      )
      setUpCopyButtons(resultBody, t)
      status.textContent = ''
    } catch (error) {
      resultBody.replaceChildren()
      status.textContent = t('site.tester.networkError', {
        message: error instanceof Error ? error.message : String(error),
      })
      return
    }
    result.hidden = false
    result.querySelector<HTMLElement>('h2')?.focus()
  })
}
