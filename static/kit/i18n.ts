/**
 * The browser's one translator, for the docs' pages and the tools' alike: the server renders one
 * language's strings into the page (the counterpart of src/i18n.ts), so nothing is fetched. Keys and placeholders
 * follow i18next's conventions (`{{name}}`, `key_one`/`key_other`), so the locale files read the
 * same as the docs'; numbers are formatted in the reader's language.
 */
export type Vars = Readonly<Record<string, string | number>>
export type Translate = (key: string, vars?: Vars) => string

/** First-strong isolate and its end: the text between takes its own direction, apart from the sentence. */
const [ISOLATE, END] = ['\u2068', '\u2069']

/**
 * `isolated`: each text put into a sentence (a size, a width × height, a file's name, a control's
 * label) is a Unicode isolate, so that in a right-to-left sentence its digits, units and Latin
 * letters keep their order and the punctuation beside it stays on the sentence's side.
 */
export function translator(
  strings: Readonly<Record<string, string>>,
  language: string,
  isolated = false,
): Translate {
  const plurals = new Intl.PluralRules(language)
  const numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 2 })
  const inserted = (value: string) => (isolated ? `${ISOLATE}${value}${END}` : value)
  return (key, vars) => {
    const count = vars?.count
    const text =
      (typeof count === 'number'
        ? (strings[`${key}_${plurals.select(count)}`] ?? strings[`${key}_other`])
        : undefined) ?? strings[key]
    if (text === undefined) return key
    return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      const value = vars?.[name]
      return typeof value === 'number' ? numbers.format(value) : inserted(value ?? '')
    })
  }
}
