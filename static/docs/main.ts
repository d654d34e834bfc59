import { translator } from '../kit/i18n.ts'
import { setUpLanguageSwitcher } from '../kit/language.ts'
import { revealCurrentPage } from '../kit/header.ts'
import { readPageData } from '../kit/page-data.ts'
import { setUpCopyButtons } from './copy.ts'
import { showOrigin } from './origin.ts'
import type { PageData } from './page-data.ts'

/** The docs site's one script: progressive enhancement of server-rendered pages. */
const data = readPageData<PageData>()
const t = translator(data.strings ?? {}, data.language)
setUpLanguageSwitcher(data.language)
revealCurrentPage()
showOrigin(document)
setUpCopyButtons(document, t)
