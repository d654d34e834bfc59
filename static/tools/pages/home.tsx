import type { ComponentType } from 'preact'
import { useState } from 'preact/hooks'
import type { PickedFile } from '../../kit/batch/files.ts'
import { boot } from '../../kit/boot.tsx'
import { env } from '../../kit/env.ts'
import { DropZone } from '../../kit/ui/DropZone.tsx'

type Tool = ComponentType<{ initialFiles?: readonly PickedFile[] }>

/**
 * The tools each open in place with the files dropped on the home, loaded only when chosen; the
 * address becomes the tool's own, so a reload or a shared link opens that tool.
 */
const TOOLS: Record<string, () => Promise<Tool>> = {
  compress: () => import('../tools/compress.tsx').then((m) => m.CompressTool),
  resize: () => import('../tools/resize.tsx').then((m) => m.ResizeTool),
  edit: () => import('../edit/EditTool.tsx').then((m) => m.EditTool),
  convert: () => import('../tools/convert.tsx').then((m) => m.ConvertTool),
  favicon: () => import('../generate/favicon.tsx').then((m) => m.FaviconTool),
  responsive: () => import('../generate/responsive.tsx').then((m) => m.ResponsiveTool),
  placeholders: () => import('../generate/placeholders.tsx').then((m) => m.PlaceholdersTool),
  social: () => import('../generate/social-card.tsx').then((m) => m.SocialCardTool),
}

function retitle(page: string): void {
  const { t } = env()
  const heading = document.querySelector('main h1')
  const lead = document.querySelector('main .lead')
  if (heading) heading.textContent = t(`pages.${page}.title`)
  if (lead) lead.textContent = t(`pages.${page}.lead`)
  document.title = `${t(`pages.${page}.title`)} · imgapi`
  document.querySelector('.tool-cards')?.parentElement?.querySelector('.cards-title')?.remove()
  document.querySelector('.tool-cards')?.remove()
}

function Home() {
  const { t, data } = env()
  const [files, setFiles] = useState<PickedFile[]>()
  const [tool, setTool] = useState<{ Component: Tool }>()
  if (tool) return <tool.Component initialFiles={files} />
  const open = async (name: string) => {
    const Component = await TOOLS[name]!()
    history.pushState({ tool: name }, '', data.paths[name])
    retitle(name)
    setTool({ Component })
    document.querySelector<HTMLElement>('main h1')?.focus()
  }
  return (
    <>
      <DropZone onFiles={setFiles} />
      {files && (
        <section class="home-choice" aria-labelledby="choice-title">
          <h2 id="choice-title" tabIndex={-1} ref={(el) => el?.focus()}>
            {t('pages.home.chosen', { count: files.length })}
          </h2>
          <div class="choice-buttons">
            {Object.keys(TOOLS).map((name) => (
              <button
                type="button"
                key={name}
                class={name === 'compress' ? 'primary' : undefined}
                onClick={() => open(name)}
              >
                {t(`pages.${name}.title`)}
              </button>
            ))}
          </div>
          <p class="hint">{t('pages.home.choiceHint')}</p>
        </section>
      )}
    </>
  )
}

// Back from a tool opened in place: the server renders whichever page the address names.
addEventListener('popstate', () => location.reload())
boot(() => <Home />)
