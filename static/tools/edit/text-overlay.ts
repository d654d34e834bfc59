import { directionOf } from '../generate/card-canvas.ts'

/** Large enough that a watermark across a wide photo stays sharp; the server scales it down. */
const FONT_PIXELS = 160

/**
 * A text watermark as a transparent PNG, drawn by the browser in the page's fonts: the server
 * ships no fonts, so the browser's shaping is what makes Persian, Arabic, Chinese or Japanese
 * text come out right. A thin dark outline keeps light text readable on light parts of a photo.
 */
export async function textOverlay(text: string, colour: string, fonts: string): Promise<Blob | undefined> {
  const line = text.trim()
  if (!line) return undefined
  const font = `700 ${FONT_PIXELS}px ${fonts}`
  const direction = directionOf(line)
  const measure = new OffscreenCanvas(1, 1).getContext('2d')!
  Object.assign(measure, { font, direction, textAlign: 'left' })
  const metrics = measure.measureText(line)
  const outline = Math.round(FONT_PIXELS / 16)
  const padding = outline * 2
  const ascent = Math.ceil(metrics.actualBoundingBoxAscent || FONT_PIXELS * 0.8)
  const descent = Math.ceil(metrics.actualBoundingBoxDescent || FONT_PIXELS * 0.25)
  const width = Math.ceil(metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight) + 2 * padding
  const canvas = new OffscreenCanvas(Math.max(1, width), ascent + descent + 2 * padding)
  const context = canvas.getContext('2d')!
  Object.assign(context, { font, direction, textAlign: 'left' })
  context.textBaseline = 'alphabetic'
  context.lineJoin = 'round'
  const x = padding + metrics.actualBoundingBoxLeft
  const y = padding + ascent
  context.lineWidth = outline
  context.strokeStyle = isLight(colour) ? 'rgba(0, 0, 0, 0.55)' : 'rgba(255, 255, 255, 0.55)'
  context.strokeText(line, x, y)
  context.fillStyle = colour
  context.fillText(line, x, y)
  return canvas.convertToBlob({ type: 'image/png' })
}

/** Whether a #rrggbb colour is light, so its outline should be dark. */
function isLight(colour: string): boolean {
  const value = Number.parseInt(colour.replace('#', ''), 16)
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140
}
