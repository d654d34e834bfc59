import { quarter, turnedSize, viewSize, type Rect, type Size } from './geometry.ts'

/** Everything Edit does to the image, as the reader set it. */
export interface EditSettings {
  /** The crop in the upright original's pixels; absent for the whole image. */
  readonly crop?: Rect
  /** free, or width:height (1:1, 4:3…), applied to the box as the view shows it. */
  readonly ratio: string
  /** Quarter turns clockwise, shown in the view, and a fine angle on top (-45 to 45). */
  readonly turns: number
  readonly angle: number
  readonly flip: boolean
  readonly flop: boolean
  readonly brightness: number
  readonly saturation: number
  readonly hue: number
  readonly contrast: number
  /** 0 for none, else the Gaussian sigma in pixels. */
  readonly sharpen: number
  readonly blur: number
  readonly greyscale: boolean
  readonly normalise: boolean
  /** -1 for no trim, else how far from the corner's colour a border may be (0 to 255). */
  readonly trim: number
  /** Padding in pixels: top, right, bottom, left, as CSS and the API write it. */
  readonly pad: readonly [number, number, number, number]
  readonly radius: number
  readonly background: string
  readonly watermark: 'none' | 'logo' | 'text'
  readonly text: string
  readonly textColour: string
  readonly overlayPosition: string
  readonly overlayOpacity: number
  readonly overlayWidth: number
  readonly overlayMargin: number
  readonly overlayTile: boolean
  readonly format: string
}

/**
 * How a watermark starts when the reader adds one: a quarter of the width, see-through and off the
 * edge, as marks on the web are laid. The API's own defaults (opaque, at the edge, at its size)
 * are for callers who say nothing; the tool sends these values explicitly.
 */
export const WATERMARK_START = { overlayOpacity: 0.8, overlayWidth: 0.25, overlayMargin: 16 } as const

export const EDIT_DEFAULTS: EditSettings = {
  ratio: 'free',
  turns: 0,
  angle: 0,
  flip: false,
  flop: false,
  brightness: 1,
  saturation: 1,
  hue: 0,
  contrast: 0,
  sharpen: 0,
  blur: 0,
  greyscale: false,
  normalise: false,
  trim: -1,
  pad: [0, 0, 0, 0],
  radius: 0,
  background: '#ffffff',
  watermark: 'none',
  text: '',
  textColour: '#ffffff',
  overlayPosition: 'bottom-right',
  ...WATERMARK_START,
  overlayTile: false,
  format: 'original',
}

export const RATIOS = ['free', '1:1', '4:3', '3:2', '16:9', '9:16'] as const

export function ratioOf(ratio: string): number | undefined {
  const [w, h] = ratio.split(':').map(Number)
  return w && h ? w / h : undefined
}

/** The whole turn in degrees, as `rotate` takes it (-360 to 360); 0 for none. */
export function rotation(settings: EditSettings): number {
  const degrees = (quarter(settings.turns) * 90 + settings.angle) % 360
  return Math.round(degrees * 100) / 100
}

const number = (value: number) => String(Math.round(value * 100) / 100)

/**
 * The options these settings send. A preview is rendered smaller than the result, so what is
 * measured in pixels after the resize (padding, radius, margin, blur and sharpening) is scaled by
 * `scale` to look the same; the crop is in the original's pixels either way.
 */
export function editQuery(settings: EditSettings, hasWatermark: boolean, scale = 1): URLSearchParams {
  const query = new URLSearchParams()
  const set = (name: string, value: string | number | boolean) => query.set(name, String(value))
  const pixels = (value: number, min = 1) => Math.max(min, Math.round(value * scale))
  const s = settings
  if (s.crop) set('crop', [s.crop.left, s.crop.top, s.crop.width, s.crop.height].join(','))
  if (s.trim >= 0) set('trim', s.trim)
  if (s.flip) set('flip', true)
  if (s.flop) set('flop', true)
  const rotate = rotation(s)
  if (rotate !== 0) set('rotate', number(rotate))
  if (s.pad.some((side) => side > 0)) set('pad', s.pad.map((side) => (side > 0 ? pixels(side) : 0)).join(','))
  if (s.greyscale) set('greyscale', true)
  if (s.blur > 0) set('blur', number(Math.max(0.6, s.blur * scale)))
  if (s.brightness !== 1) set('brightness', number(s.brightness))
  if (s.saturation !== 1) set('saturation', number(s.saturation))
  if (s.hue !== 0) set('hue', s.hue)
  if (s.sharpen > 0) set('sharpen', number(Math.max(0.5, s.sharpen * scale)))
  if (s.contrast !== 0) set('contrast', s.contrast)
  if (s.normalise) set('normalise', true)
  if (hasWatermark) {
    set('overlayPosition', s.overlayPosition)
    set('overlayOpacity', number(s.overlayOpacity))
    set('overlayWidth', number(s.overlayWidth))
    if (s.overlayMargin > 0) set('overlayMargin', pixels(s.overlayMargin, 0))
    if (s.overlayTile) set('overlayTile', true)
  }
  if (s.radius > 0) set('radius', pixels(s.radius))
  if (s.background !== '#ffffff') set('background', s.background)
  if (s.format !== 'original') set('format', s.format)
  return query
}

/** The result's size before padding: the crop (or the whole image) as the view turns it, then the angle. */
export function resultSize(settings: EditSettings, original: Size): Size {
  const box = settings.crop ?? original
  return turnedSize(viewSize(box, { turns: settings.turns, flip: false, flop: false }), settings.angle)
}
