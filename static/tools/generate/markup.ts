/** What the responsive set's markup is built from: each file, its width, height and format. */
export interface SetFile {
  readonly name: string
  readonly format: string
  readonly mime: string
  readonly width: number
  readonly height: number
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`)

/** One candidate a line: long sets stay readable, and HTML allows the white space. */
const srcset = (files: readonly SetFile[], indent: string) =>
  files.map((file) => `\n${indent}${escape(file.name)} ${file.width}w`).join(',')

/**
 * The <picture> element for a responsive set: one <source> per modern format, best first, and
 * an <img> in the most widely shown one (the last chosen) with a middle width as src and its
 * real width and height, so the page reserves the space before it loads.
 */
export function pictureMarkup(
  files: readonly SetFile[],
  formats: readonly string[],
  sizes: string,
  alt: string,
): string {
  const byFormat = formats
    .map((format) => files.filter((file) => file.format === format).sort((a, b) => a.width - b.width))
    .filter((group) => group.length > 0)
  const fallback = byFormat.at(-1)
  if (!fallback) return ''
  const middle = fallback[Math.floor(fallback.length / 2)]!
  const sources = byFormat
    .slice(0, -1)
    .map(
      (group) =>
        `  <source type="${group[0]!.mime}" sizes="${escape(sizes)}" srcset="${srcset(group, '      ')}">`,
    )
  const img = `  <img src="${escape(middle.name)}" width="${middle.width}" height="${middle.height}" alt="${escape(alt)}" loading="lazy" decoding="async"\n    sizes="${escape(sizes)}" srcset="${srcset(fallback, '      ')}">`
  return ['<picture>', ...sources, img, '</picture>'].join('\n')
}
