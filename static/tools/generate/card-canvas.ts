/**
 * The social card drawn on a canvas: the image filling 1200×630 (cropped to fit), a shade for
 * contrast, then the title and subtitle in the browser's own fonts, so any script the reader
 * types (Persian, Chinese, Japanese…) is drawn as the page shows it. Lines break where the
 * language allows (Intl.Segmenter), and each text runs in its own direction.
 */
export const CARD_WIDTH = 1200
export const CARD_HEIGHT = 630
const MARGIN = 72

export interface CardText {
  readonly title: string
  readonly subtitle: string
  /** Where the text sits: over a shade at the bottom, or in a band on the start side. */
  readonly layout: 'bottom' | 'side'
  readonly accent: string
}

const RTL = /^[^A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/

export function directionOf(text: string): 'rtl' | 'ltr' {
  return RTL.test(text) ? 'rtl' : 'ltr'
}

/** Splits text into lines no wider than `width`, breaking only where the language allows. */
export function wrap(
  context: CanvasRenderingContext2D,
  text: string,
  width: number,
  language: string,
): string[] {
  const segments = [...new Intl.Segmenter(language, { granularity: 'word' }).segment(text)].map(
    (s) => s.segment,
  )
  const lines: string[] = []
  let line = ''
  for (const segment of segments) {
    const next = line + segment
    if (line && context.measureText(next.trim()).width > width) {
      lines.push(line.trim())
      line = segment.trimStart()
    } else line = next
  }
  if (line.trim()) lines.push(line.trim())
  return lines
}

function cover(
  context: CanvasRenderingContext2D,
  image: CanvasImageSource & { width: number; height: number },
): void {
  const scale = Math.max(CARD_WIDTH / image.width, CARD_HEIGHT / image.height)
  const width = image.width * scale
  const height = image.height * scale
  context.drawImage(image, (CARD_WIDTH - width) / 2, (CARD_HEIGHT - height) / 2, width, height)
}

/** Draws lines from the bottom up, largest font that fits `maxLines`; returns the top used. */
function block(
  context: CanvasRenderingContext2D,
  text: string,
  options: {
    font: (size: number) => string
    sizes: number[]
    maxLines: number
    bottom: number
    box: [number, number]
    language: string
  },
): number {
  if (!text.trim()) return options.bottom
  const [left, width] = options.box
  let lines: string[] = []
  let size = options.sizes[0]!
  for (size of options.sizes) {
    context.font = options.font(size)
    lines = wrap(context, text, width, options.language)
    if (lines.length <= options.maxLines) break
  }
  lines = lines.slice(0, options.maxLines)
  const direction = directionOf(text)
  context.direction = direction
  context.textAlign = 'start'
  const x = direction === 'rtl' ? left + width : left
  const lineHeight = size * 1.25
  lines.forEach((line, i) => context.fillText(line, x, options.bottom - (lines.length - 1 - i) * lineHeight))
  return options.bottom - lines.length * lineHeight
}

export function drawCard(
  canvas: HTMLCanvasElement,
  image: (CanvasImageSource & { width: number; height: number }) | undefined,
  text: CardText,
  fonts: string,
  language: string,
): void {
  const context = canvas.getContext('2d')!
  context.fillStyle = '#1b1f24'
  context.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT)
  if (image) cover(context, image)
  const rtlPage = document.documentElement.dir === 'rtl'
  let box: [number, number]
  if (text.layout === 'side') {
    const bandStart = rtlPage ? CARD_WIDTH * 0.45 : 0
    context.fillStyle = 'rgba(13, 17, 23, 0.82)'
    context.fillRect(bandStart, 0, CARD_WIDTH * 0.55, CARD_HEIGHT)
    box = [bandStart + MARGIN, CARD_WIDTH * 0.55 - 2 * MARGIN]
  } else {
    const shade = context.createLinearGradient(0, CARD_HEIGHT * 0.3, 0, CARD_HEIGHT)
    shade.addColorStop(0, 'rgba(13, 17, 23, 0)')
    shade.addColorStop(1, 'rgba(13, 17, 23, 0.88)')
    context.fillStyle = shade
    context.fillRect(0, 0, CARD_WIDTH, CARD_HEIGHT)
    box = [MARGIN, CARD_WIDTH - 2 * MARGIN]
  }
  context.textBaseline = 'alphabetic'
  context.fillStyle = 'rgba(255, 255, 255, 0.86)'
  const subtitleTop = block(context, text.subtitle, {
    font: (s) => `400 ${s}px ${fonts}`,
    sizes: [34, 30, 26],
    maxLines: 2,
    bottom: CARD_HEIGHT - MARGIN,
    box,
    language,
  })
  context.fillStyle = '#ffffff'
  const titleTop = block(context, text.title, {
    font: (s) => `700 ${s}px ${fonts}`,
    sizes: [72, 64, 56, 48, 42],
    maxLines: 3,
    bottom: subtitleTop - (text.subtitle.trim() ? 28 : 0),
    box,
    language,
  })
  context.fillStyle = text.accent
  const [left, width] = box
  const accentX = directionOf(text.title || text.subtitle) === 'rtl' ? left + width - 96 : left
  context.fillRect(accentX, titleTop - 8, 96, 8)
}
