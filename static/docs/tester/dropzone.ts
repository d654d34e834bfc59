import type { TFunction } from 'i18next'
import { numberFormats } from '../../../src/docs/numbers.ts'

/** Dropping a file on the zone puts it in the file input, as if it had been chosen. */
export function setUpDropzone(
  zone: HTMLElement,
  input: HTMLInputElement,
  t: TFunction,
  language: string,
): void {
  const info = zone.querySelector<HTMLElement>('[data-file-info]')
  const numbers = numberFormats(language)
  const describe = () => {
    const file = input.files?.[0]
    if (info)
      info.textContent = file
        ? t('site.tester.fileChosen', { name: file.name, size: numbers.bytes(file.size) })
        : ''
  }
  input.addEventListener('change', describe)
  zone.addEventListener('dragover', (event) => {
    event.preventDefault()
    zone.classList.add('dragging')
  })
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'))
  zone.addEventListener('drop', (event) => {
    event.preventDefault()
    zone.classList.remove('dragging')
    if (!event.dataTransfer?.files.length) return
    input.files = event.dataTransfer.files
    input.dispatchEvent(new Event('change', { bubbles: true }))
  })
}
