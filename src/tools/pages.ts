/**
 * The web tools' pages, declared once: routes, navigation, the home's cards and the browser
 * entry each page loads all read this table.
 */
export const TOOL_GROUPS = ['compress', 'resize', 'edit', 'convert', 'generate'] as const
export type ToolGroup = (typeof TOOL_GROUPS)[number]

/** What Generate makes from one image, each on a page of its own. */
export const GENERATORS = ['favicon', 'responsive', 'placeholders', 'social'] as const
export type Generator = (typeof GENERATORS)[number]

export type ToolPage = 'home' | ToolGroup | Generator

export interface ToolPageSpec {
  readonly path: string
  /** The group it belongs to, for the navigation; the home belongs to none. */
  readonly group?: ToolGroup
  /** Its script in static/tools/pages/, built as <entry>.js. */
  readonly entry: string
}

export const TOOL_PAGES = {
  home: { path: '/', entry: 'home' },
  compress: { path: '/tools/compress', group: 'compress', entry: 'compress' },
  resize: { path: '/tools/resize', group: 'resize', entry: 'resize' },
  edit: { path: '/tools/edit', group: 'edit', entry: 'edit' },
  convert: { path: '/tools/convert', group: 'convert', entry: 'convert' },
  generate: { path: '/tools/generate', group: 'generate', entry: 'generate' },
  favicon: { path: '/tools/generate/favicon', group: 'generate', entry: 'favicon' },
  responsive: { path: '/tools/generate/responsive', group: 'generate', entry: 'responsive' },
  placeholders: { path: '/tools/generate/placeholders', group: 'generate', entry: 'placeholders' },
  social: { path: '/tools/generate/social-card', group: 'generate', entry: 'social' },
} as const satisfies Record<ToolPage, ToolPageSpec>

export const TOOL_PAGE_NAMES = Object.keys(TOOL_PAGES) as ToolPage[]
