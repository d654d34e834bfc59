/**
 * The web tools' pages, declared once: routes, navigation, the home's cards and the browser
 * entry each page loads all read this table. The groups are what the tools do today; Edit (crop,
 * rotate, adjust) joins them when POST /api/compress can do it, not before: the home lists only
 * what works.
 */
export const TOOL_GROUPS = ['compress', 'resize', 'convert', 'generate'] as const
export type ToolGroup = (typeof TOOL_GROUPS)[number]

/** The generators that need no option beyond today's API (the favicon pack waits for format=ico). */
export const GENERATORS = ['responsive', 'placeholders', 'social'] as const
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
  convert: { path: '/tools/convert', group: 'convert', entry: 'convert' },
  generate: { path: '/tools/generate', group: 'generate', entry: 'generate' },
  responsive: { path: '/tools/generate/responsive', group: 'generate', entry: 'responsive' },
  placeholders: { path: '/tools/generate/placeholders', group: 'generate', entry: 'placeholders' },
  social: { path: '/tools/generate/social-card', group: 'generate', entry: 'social' },
} as const satisfies Record<ToolPage, ToolPageSpec>

export const TOOL_PAGE_NAMES = Object.keys(TOOL_PAGES) as ToolPage[]
