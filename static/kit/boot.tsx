import { render, type ComponentChild } from 'preact'
import { revealCurrentPage } from './header.ts'
import { setUpLanguageSwitcher } from './language.ts'
import { setEnv } from './env.ts'
import { readPageData } from './page-data.ts'

/** Every tools page starts here: its data and strings, the language switcher, then its view. */
export function boot(view?: () => ComponentChild): void {
  const data = readPageData()
  setEnv(data)
  setUpLanguageSwitcher(data.language)
  revealCurrentPage()
  const root = document.getElementById('tool')
  if (root && view) render(view(), root)
}
