import type { OutputFormat } from '../formats/format-table.ts'
import type { Gravity } from '../options/image-options.ts'
import type { AutoQuality, CompressOptions, OptionName } from '../options/schema.ts'

/*
 * What a job is, once planned: plain data (no functions, no buffers), so that it can be logged,
 * compared in tests and sent to another process as JSON beside the image's bytes.
 */

export type Fit = CompressOptions['fit']
export type Position = CompressOptions['position']

/** A rectangle in pixels. */
/** What the adjustments change; a field is set only when it changes something. */
export interface Adjustments {
  /** Multipliers of lightness and saturation, 1 unchanged; hue in degrees. */
  readonly brightness?: number
  readonly saturation?: number
  readonly hue?: number
  /** -100 (flat grey) to 100 (nearly black and white). */
  readonly contrast?: number
  /** Gaussian sigmas. */
  readonly sharpen?: number
  readonly blur?: number
  readonly greyscale?: boolean
  readonly normalise?: boolean
}

/** How the watermark (sent beside the image) is laid on it. */
export interface OverlayPlan {
  readonly position: Gravity
  /** 0 (invisible) to 1: multiplies the watermark's own alpha. */
  readonly opacity: number
  /** A share of the output's width; absent, the watermark's own size (shrunk to fit). */
  readonly width?: number
  /** Pixels kept clear between the watermark and the edges, or between tiles. */
  readonly margin: number
  readonly tile: boolean
}

/** Pixels added on each side. */
export interface Sides {
  readonly top: number
  readonly right: number
  readonly bottom: number
  readonly left: number
}

export interface Region {
  readonly left: number
  readonly top: number
  readonly width: number
  readonly height: number
}

/** Everything the pipeline needs, resolved: no defaults left to guess, no HTTP. */
export interface JobPlan {
  readonly format: OutputFormat
  readonly quality?: number
  readonly lossless: boolean
  readonly effort?: number
  readonly progressive: boolean
  readonly chromaSubsampling?: '4:2:0' | '4:4:4'
  /** WebP's sharp RGB to YUV conversion. */
  readonly smartSubsample: boolean
  readonly background: string
  /** Composite transparency onto `background`: the input has alpha and the output cannot keep it. */
  readonly flatten: boolean
  /** `background` shows in the output: flattened transparency, or the letterbox of fit=contain. */
  readonly paintsBackground: boolean
  /** The region kept (crop), in pixels of the upright input. */
  readonly crop?: Region
  /** Remove a border of one colour: the largest difference from it that still counts as border. */
  readonly trim?: number
  /** Mirror top to bottom (flip) and left to right (flop), before any rotation. */
  readonly flip?: boolean
  readonly flop?: boolean
  /** Degrees clockwise, more than 0 and less than 360. */
  readonly rotate?: number
  /** Pixels of background added around the resized image. */
  readonly pad?: Sides
  readonly adjust?: Adjustments
  /** Set when the request sent a watermark. */
  readonly overlay?: OverlayPlan
  /** Rounded corners, in pixels. */
  readonly radius?: number
  /** format=ico: the square sizes of its images, smallest first. */
  readonly icoSizes?: readonly number[]
  readonly resize?: {
    readonly width?: number
    readonly height?: number
    readonly fit: Fit
    readonly withoutEnlargement: boolean
    /** What a cover crop keeps, or where a contain letterbox puts the image; the centre when absent. */
    readonly position?: Position
  }
  readonly metadata: CompressOptions['metadata']
  /** Keep every frame (input animated and output can animate). */
  readonly animated: boolean
  /** Options the caller gave that do not apply to this output. */
  readonly ignored: readonly OptionName[]
  /**
   * What a search aims for, when the caller asked for one: a similarity level (quality=auto…)
   * and/or a byte target. `quality` is then only where the search starts.
   */
  readonly goal?: SearchGoal
  /**
   * Encoded only to be scored, never sent: JPEG then skips its Huffman optimisation and PNG its
   * deflate (zlib level 0), which shrink the file and leave the decoded pixels as they are.
   */
  readonly scoredOnly?: boolean
  /** Palette size and dithering for PNG and GIF, set only by a byte-target search. */
  readonly colours?: number
  readonly dither?: number
}

export interface SearchGoal {
  readonly level?: AutoQuality
  readonly maxBytes?: number
  readonly allowResize: boolean
  /** A quality the caller gave with maxBytes: the search never goes above it. */
  readonly ceiling?: number
  /** With maxBytes: the lowest quality the search may use (minQuality, or the format's floor). */
  readonly floor?: number
}
