/** What the server renders into a docs page for its script (read by static/kit/page-data.ts). */
export interface PageData {
  readonly area: string
  readonly language: string
  readonly strings?: Readonly<Record<string, string>>
  readonly referencePath?: string
}
