import { Type } from '@sinclair/typebox'
import { StringEnum } from './string-enum.ts'

/*
 * The options that change the picture, in the order the pipeline applies them (the README's
 * "Order of operations"): crop, trim, rotate and flip, resize, pad, adjust, overlay, rounded
 * corners. Part of the one option schema (schema.ts), which spreads them in.
 *
 * `x-kind` names how the docs describe a value written as text (site.reference.types.<kind>);
 * `x-expected` is the phrase an error message uses.
 */

/** Where to place or what to keep: the nine points of a box, as overlayPosition takes them too. */
export const GRAVITIES = [
  'centre',
  'top',
  'top-right',
  'right',
  'bottom-right',
  'bottom',
  'bottom-left',
  'left',
  'top-left',
] as const
export type Gravity = (typeof GRAVITIES)[number]

/** Four whole numbers of pixels, comma-separated. */
const FOUR_NUMBERS = '^\\s*\\d{1,5}\\s*(,\\s*\\d{1,5}\\s*){3}$'
/** Four whole numbers of pixels, comma-separated, the last two at least 1: a region's size. */
const REGION = '^\\s*\\d{1,8}\\s*,\\s*\\d{1,8}\\s*(,\\s*0*[1-9]\\d{0,7}\\s*){2}$'

export const IMAGE_OPTIONS = {
  crop: Type.Optional(
    Type.String({
      pattern: REGION,
      maxLength: 64,
      examples: ['100,50,800,600'],
      'x-expected': 'left,top,width,height in pixels, such as 100,50,800,600, width and height at least 1',
      'x-kind': 'region',
    }),
  ),
  trim: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, examples: [10] })),
  rotate: Type.Optional(Type.Number({ minimum: -360, maximum: 360, examples: [90] })),
  flip: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  flop: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  width: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, examples: [800] })),
  height: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, examples: [600] })),
  fit: Type.Optional(
    StringEnum(['cover', 'contain', 'fill', 'inside', 'outside'], {
      default: 'inside',
      examples: ['inside'],
    }),
  ),
  position: Type.Optional(
    StringEnum([...GRAVITIES, 'attention', 'entropy'], { default: 'centre', examples: ['attention'] }),
  ),
  dpr: Type.Optional(Type.Number({ minimum: 1, maximum: 4, default: 1, examples: [2] })),
  withoutEnlargement: Type.Optional(Type.Boolean({ default: true, examples: [true] })),
  pad: Type.Optional(
    Type.String({
      pattern: FOUR_NUMBERS,
      maxLength: 48,
      examples: ['20,20,20,20'],
      'x-expected': 'top,right,bottom,left in pixels, such as 0,20,0,20',
      'x-kind': 'sides',
    }),
  ),
  brightness: Type.Optional(Type.Number({ minimum: 0, maximum: 2, default: 1, examples: [1.2] })),
  saturation: Type.Optional(Type.Number({ minimum: 0, maximum: 2, default: 1, examples: [1.2] })),
  hue: Type.Optional(Type.Integer({ minimum: -180, maximum: 180, default: 0, examples: [30] })),
  contrast: Type.Optional(Type.Integer({ minimum: -100, maximum: 100, default: 0, examples: [20] })),
  // Below 0.5 libvips' sharpening mask and below 0.6 its blur kernel change no pixel
  // (measured on photo-pier-4mp.jpg: the Laplacian variance stayed exactly the same).
  sharpen: Type.Optional(Type.Number({ minimum: 0.5, maximum: 10, examples: [1] })),
  blur: Type.Optional(Type.Number({ minimum: 0.6, maximum: 20, examples: [2] })),
  greyscale: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  normalise: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  // The watermark itself is the multipart file field `overlay`, beside the image's `file`.
  overlayPosition: Type.Optional(
    StringEnum(GRAVITIES, { default: 'bottom-right', examples: ['bottom-right'] }),
  ),
  overlayOpacity: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 1, examples: [0.5] })),
  overlayWidth: Type.Optional(Type.Number({ minimum: 0.01, maximum: 1, examples: [0.2] })),
  overlayMargin: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 0, examples: [16] })),
  overlayTile: Type.Optional(Type.Boolean({ default: false, examples: [false] })),
  radius: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, examples: [24] })),
}
