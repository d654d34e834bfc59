/*
 * The "do not use" list each glossary (locales/glossary/<lng>.md) keeps in a fenced block:
 *
 *   ```do-not-use
 *   İç hata → Sunucu hatası
 *   …ي → ی
 *   ```
 *
 * A term matches in any case, at the start of a word (so a Turkish or Korean ending after it
 * still matches; an identifier such as AWS_ENDPOINT_URL is one word, so "endpoint" is not in it); Chinese and Japanese have no word breaks, so there it matches anywhere, as does
 * a term written with a leading … (a letter or part of a word).
 */
export interface ForbiddenTerm {
  readonly term: string
  readonly preferred: string
  readonly anywhere: boolean
}

const BLOCK = /^```do-not-use\n([\s\S]*?)^```/m
const WORDLESS = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u

export function forbiddenTerms(glossary: string): ForbiddenTerm[] {
  const block = BLOCK.exec(glossary)?.[1] ?? ''
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [left = '', preferred = ''] = line.split('→').map((part) => part.trim())
      const anywhere = left.startsWith('…') || WORDLESS.test(left)
      return { term: left.replace(/^…/, ''), preferred, anywhere }
    })
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Whether `text`, in `language`, uses the forbidden term. */
export function usesTerm(text: string, forbidden: ForbiddenTerm, language: string): boolean {
  const lower = (s: string) => s.toLocaleLowerCase(language)
  const start = forbidden.anywhere ? '' : '(?<![\\p{L}\\p{M}\\p{N}_])'
  return new RegExp(start + escape(lower(forbidden.term)), 'u').test(lower(text))
}
