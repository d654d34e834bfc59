import { html, raw, type Html } from '../site/html.ts'
import { translator, type LanguageCode } from '../i18n.ts'
import { GENERATORS, TOOL_GROUPS, TOOL_PAGES, type ToolPage } from './pages.ts'

/** A line drawing per page (24×24, stroked in the accent colour by the stylesheet). */
const ICONS: Record<ToolPage, string> = {
  home: '',
  compress: '<path d="M4 4l6 6M20 4l-6 6M4 20l6-6M20 20l-6-6M10 6v4H6M14 6v4h4M10 18v-4H6M14 18v-4h4"/>',
  resize: '<rect x="3" y="9" width="12" height="12" rx="1"/><path d="M13 3h8v8M21 3l-8 8"/>',
  edit: '<path d="M6 2v16h16M2 6h16v16"/><path d="M14 10l-4 4"/>',
  convert: '<path d="M4 8h13l-4-4M20 16H7l4 4"/>',
  generate:
    '<rect x="3" y="3" width="8" height="8" rx="1"/><rect x="13" y="3" width="8" height="8" rx="1"/><rect x="3" y="13" width="8" height="8" rx="1"/><path d="M17 13v8M13 17h8"/>',
  favicon:
    '<rect x="3" y="3" width="18" height="18" rx="4"/><path d="M12 7l1.5 3.2 3.5.4-2.6 2.4.7 3.5L12 14.8l-3.1 1.7.7-3.5L7 10.6l3.5-.4z"/>',
  responsive:
    '<rect x="2" y="5" width="14" height="11" rx="1"/><rect x="17" y="9" width="5" height="10" rx="1"/><path d="M6 20h6"/>',
  placeholders:
    '<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 15l5-5 4 4 3-3 6 6"/><circle cx="16" cy="8.5" r="1.5"/>',
  social: '<rect x="2" y="5" width="20" height="14" rx="2"/><path d="M6 14h8M6 10h12"/>',
}

/** A card per page: its name and what it does, a plain link that works before any script runs. */
function cards(pages: readonly ToolPage[], language: LanguageCode): Html {
  const t = translator(language)
  return html`<ul class="tool-cards">
${pages.map(
  (
    page,
  ) => html`<li class="tool-card tool-card-${page}"><a href="${TOOL_PAGES[page].path}"><span class="tool-card-icon" aria-hidden="true"><svg viewBox="0 0 24 24">${raw(ICONS[page])}</svg></span><strong>${t(`tools.pages.${page}.title`)}</strong></a>
<p>${t(`tools.pages.${page}.card`)}</p></li>`,
)}
</ul>`
}

/** The home: the drop zone (filled by its script), then the tool groups. */
export function homeCards(language: LanguageCode): Html {
  const t = translator(language)
  return html`<h2 class="cards-title">${t('tools.pages.home.groups')}</h2>${cards(TOOL_GROUPS, language)}`
}

/** Generate's own page: one card per generator. */
export function generatorCards(language: LanguageCode): Html {
  return cards(GENERATORS, language)
}
