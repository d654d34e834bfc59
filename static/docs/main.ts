import { setUpCopyButtons } from './copy.ts'
import { revealCurrentPage } from './header.ts'
import { pageTranslator } from './i18n.ts'
import { setUpLanguageSwitcher } from './language.ts'
import { showOrigin } from './origin.ts'
import { readPageData } from './page-data.ts'

/** The docs site's one script: progressive enhancement of server-rendered pages. */
const data = readPageData()
const t = await pageTranslator(data)
setUpLanguageSwitcher(data.language)
revealCurrentPage()
showOrigin(document)
setUpCopyButtons(document, t)
