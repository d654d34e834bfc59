import { Elysia } from 'elysia'
import type { AppContext } from '../app-context.ts'
import { generatorCards, homeCards } from '../tools/home.ts'
import { renderToolPage, toolFrame } from '../tools/layout.ts'
import { TOOL_PAGE_NAMES, TOOL_PAGES, type ToolPage } from '../tools/pages.ts'
import { pageServer, querySuffix, redirect } from './site-pages.ts'

const HIDDEN = { detail: { hide: true } }

/**
 * The web tools: `/` and a page per tool, rendered in the reader's language; every image
 * operation they perform is a POST /api/compress from the browser. With the tools off
 * (IMGAPI_TOOLS=false) there are no tool pages and `/` leads to the docs.
 */
export function toolsRoutes(context: AppContext) {
  const app = new Elysia()
  if (!context.config.tools)
    return app.get('/', ({ request }) => redirect(`/docs/${querySuffix(request)}`), HIDDEN)
  const page = pageServer()
  const body = (name: ToolPage, language: Parameters<typeof toolFrame>[1]) => {
    if (name === 'home') return toolFrame(name, language, homeCards(language))
    if (name === 'generate') return toolFrame(name, language, generatorCards(language))
    return toolFrame(name, language)
  }
  // The tools' own pages live under /tools/, so a reader trimming the URL lands on their home.
  for (const path of ['/tools', '/tools/'])
    app.get(path, ({ request }) => redirect(`/${querySuffix(request)}`), HIDDEN)
  for (const name of TOOL_PAGE_NAMES)
    app.get(
      TOOL_PAGES[name].path,
      page(name, (language) => renderToolPage(context, name, language, { body: body(name, language) })),
      HIDDEN,
    )
  return app
}
