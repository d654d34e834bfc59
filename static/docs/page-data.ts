/** What the server rendered into the page for its script: the area, the language and strings. */
export interface PageData {
  readonly area: string
  readonly language: string
  readonly strings?: Readonly<Record<string, string>>
  readonly referencePath?: string
}

export function readPageData(): PageData {
  const element = document.getElementById('page-data')
  return JSON.parse(element?.textContent ?? '{}') as PageData
}
