import i18next, { type TFunction } from 'i18next'
import type { PageData } from './page-data.ts'

/**
 * The browser's counterpart of src/i18n.ts: the one module that loads strings on the page.
 * The server renders the current language's strings into the page, so nothing else is
 * fetched, and another language loads only when the reader chooses it (a new page).
 */
export async function pageTranslator(data: PageData): Promise<TFunction> {
  const instance = i18next.createInstance()
  await instance.init({
    lng: data.language,
    resources: { [data.language]: { translation: data.strings ?? {} } },
    keySeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  return instance.getFixedT(data.language)
}
