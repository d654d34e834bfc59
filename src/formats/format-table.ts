/**
 * What we declare about each format. What this build of libvips can actually read and
 * write is not declared here: `formats.ts` asks sharp at run time and merges the two.
 */
export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff', 'ico'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

/**
 * Outputs whose container sharp cannot write: the service packs them itself from images sharp
 * encodes (steps/pack.ts). They are written only, never read, never chosen by format=auto, and
 * have no quality to search: quality, effort and maxBytes do not apply.
 */
export const PACKED_FORMATS = ['ico'] as const
export type PackedFormat = (typeof PACKED_FORMATS)[number]
/** The outputs a search (maxBytes, quality=auto, format=auto) can encode. */
export type SearchFormat = Exclude<OutputFormat, PackedFormat>

export const isPacked = (format: OutputFormat): format is PackedFormat =>
  (PACKED_FORMATS as readonly string[]).includes(format)

/** The format of a plan a search encodes; planning never gives a packed format a search. */
export function searchFormat(format: OutputFormat): SearchFormat {
  if (isPacked(format)) throw new Error(`${format} output is never searched`)
  return format
}

export const INPUT_ONLY_FORMATS = ['svg', 'jxl', 'heic'] as const
export type FormatId = OutputFormat | (typeof INPUT_ONLY_FORMATS)[number]

export interface RangeTunable {
  readonly min: number
  readonly max: number
  readonly default: number
}

/** A default that depends on the output's size: the first step whose maxPixels holds it, else the last. */
export interface PixelStep {
  readonly maxPixels: number
  readonly effort: number
}

export interface EffortTunable extends RangeTunable {
  /** The default effort by output pixels, where one effort does not suit every size. */
  readonly defaultByPixels?: readonly PixelStep[]
}
export interface ChoiceTunable {
  readonly values: readonly string[]
  readonly default: string
}
export interface FlagTunable {
  readonly default: boolean
}

export interface Tunables {
  readonly quality?: RangeTunable
  /**
   * The lowest quality a byte target (maxBytes) may use: below it images turn to blocks, so the
   * search answers TARGET_UNREACHABLE (or scales down, with allowResize) instead. Palette
   * formats read it as a share of 256 colours.
   */
  readonly minQuality?: RangeTunable
  readonly effort?: EffortTunable
  readonly lossless?: FlagTunable
  readonly progressive?: FlagTunable
  readonly chromaSubsampling?: ChoiceTunable
  readonly smartSubsample?: FlagTunable
}

/**
 * AVIF's default effort by output pixels, the same on every machine, so that two servers, the
 * command line and one request's variants answer the same bytes (bench/avif-effort/README.md
 * has the measurements). Effort 4 costs five times effort 3's CPU for 2-9% fewer bytes at
 * equal SSIM (2% at 2 MP, 9% at 6), and its encodes are too slow for the several a byte target
 * needs: a target that quality 90 meets on a 1 MP photo came back 12% under, a 16 MP photo took
 * 35 s of CPU at quality 50. Efforts 1 and 2 are no smaller than 0, which is five times faster
 * than 3 again; what 3 saves over 0 shrinks as the pixels grow (5-6% at 6 MP, 0-10% at 12)
 * while its time grows past what a search can spend (a dense 4 MP photo: 4.2 s an encode).
 * An effort asked for is used as it is.
 */
const AVIF_EFFORT_BY_PIXELS: readonly PixelStep[] = [
  { maxPixels: 8_000_000, effort: 3 },
  { maxPixels: 100_000_000, effort: 0 },
]

/** The default effort for an output of `pixels`: its format's step for that size, or the plain default. */
export function defaultEffort(effort: EffortTunable, pixels: number): number {
  const steps = effort.defaultByPixels
  if (!steps || steps.length === 0) return effort.default
  return (steps.find((step) => pixels <= step.maxPixels) ?? steps.at(-1)!).effort
}

export interface FormatDeclaration {
  readonly mime: string
  readonly extensions: readonly string[]
  /** Other names accepted for `format=`; the only aliases the API has. */
  readonly aliases: readonly string[]
  /** Key in `sharp.format` whose input/output capability applies. */
  readonly sharpId: string
  readonly animated: boolean
  readonly alpha: boolean
  readonly lossless: boolean
  /** Can carry EXIF/ICC/XMP, so `metadata=keep` means something. */
  readonly metadata: boolean
  readonly tunables: Tunables
}

const QUALITY = { min: 1, max: 100 } as const

/**
 * What JPEG effort=1 (trellis quantisation) buys over effort 0, both progressive as by default:
 * the smaller of the savings at luma SSIM 0.95 and 0.98 on the corpus photos, and the encoder's
 * CPU time, rounded, from the `npm run bench:settings` table in bench/encoder-settings/README.md
 * (tests/readme.test.ts recomputes both from that table). The docs and the OpenAPI text
 * interpolate these figures.
 */
export const JPEG_TRELLIS = { bytesSaved: 0.06, encoderTimes: 5 } as const
const SUBSAMPLING = ['4:2:0', '4:4:4'] as const

export const FORMAT_TABLE = {
  jpeg: {
    mime: 'image/jpeg',
    extensions: ['jpg', 'jpeg', 'jpe', 'jfif'],
    aliases: ['jpg'],
    sharpId: 'jpeg',
    animated: false,
    alpha: false,
    lossless: false,
    metadata: true,
    tunables: {
      minQuality: { ...QUALITY, default: 50 },
      quality: { ...QUALITY, default: 80 },
      // Trellis quantisation saves JPEG_TRELLIS.bytesSaved for JPEG_TRELLIS.encoderTimes the
      // encoder's time: not the 10% that would pay for a slower default, so it is effort=1.
      // Progressive saved up to 2% for a few milliseconds, renders sooner, and is what IPX and
      // most web pipelines send.
      effort: { min: 0, max: 1, default: 0 },
      progressive: { default: true },
      chromaSubsampling: { values: SUBSAMPLING, default: '4:2:0' },
    },
  },
  png: {
    mime: 'image/png',
    extensions: ['png'],
    aliases: [],
    sharpId: 'png',
    animated: false,
    alpha: true,
    lossless: true,
    metadata: true,
    tunables: {
      minQuality: { ...QUALITY, default: 40 },
      quality: { ...QUALITY, default: 80 },
      effort: { min: 1, max: 10, default: 7 },
      lossless: { default: false },
      // Interlacing makes a PNG bigger, which is the opposite of what this service is for.
      progressive: { default: false },
    },
  },
  webp: {
    mime: 'image/webp',
    extensions: ['webp'],
    aliases: [],
    sharpId: 'webp',
    animated: true,
    alpha: true,
    lossless: true,
    metadata: true,
    tunables: {
      minQuality: { ...QUALITY, default: 50 },
      quality: { ...QUALITY, default: 80 },
      effort: { min: 0, max: 6, default: 4 },
      lossless: { default: false },
      // Sharp YUV doubled the encoder's time and added 2-3% at equal luma SSIM on the corpus
      // photos; it pays only on saturated colour edges, so the caller asks for it.
      smartSubsample: { default: false },
    },
  },
  avif: {
    mime: 'image/avif',
    extensions: ['avif'],
    aliases: [],
    sharpId: 'heif',
    animated: false,
    alpha: true,
    lossless: true,
    metadata: true,
    tunables: {
      minQuality: { ...QUALITY, default: 40 },
      quality: { ...QUALITY, default: 50 },
      effort: { min: 0, max: 9, default: 3, defaultByPixels: AVIF_EFFORT_BY_PIXELS },
      lossless: { default: false },
      // 4:2:0 was 3-4% smaller at equal luma SSIM and 19% faster to encode (bench:settings); 4:4:4
      // is for saturated colour edges, which luma does not see, as with JPEG.
      chromaSubsampling: { values: SUBSAMPLING, default: '4:2:0' },
    },
  },
  gif: {
    mime: 'image/gif',
    extensions: ['gif'],
    aliases: [],
    sharpId: 'gif',
    animated: true,
    alpha: true,
    lossless: false,
    metadata: false,
    tunables: {
      minQuality: { ...QUALITY, default: 12 },
      effort: { min: 1, max: 10, default: 7 },
      progressive: { default: false },
    },
  },
  tiff: {
    mime: 'image/tiff',
    extensions: ['tif', 'tiff'],
    aliases: ['tif'],
    sharpId: 'tiff',
    animated: false,
    alpha: true,
    lossless: true,
    metadata: true,
    tunables: {
      minQuality: { ...QUALITY, default: 50 },
      quality: { ...QUALITY, default: 80 },
      lossless: { default: false },
    },
  },
  ico: {
    // PNG frames in an ICO directory; sharp's PNG writer is what makes it writable here.
    mime: 'image/x-icon',
    extensions: ['ico'],
    aliases: [],
    sharpId: 'png',
    animated: false,
    alpha: true,
    lossless: true,
    metadata: false,
    tunables: {},
  },
  svg: {
    mime: 'image/svg+xml',
    extensions: ['svg'],
    aliases: [],
    sharpId: 'svg',
    animated: false,
    alpha: true,
    lossless: false,
    metadata: false,
    tunables: {},
  },
  jxl: {
    mime: 'image/jxl',
    extensions: ['jxl'],
    aliases: [],
    sharpId: 'jxl',
    animated: true,
    alpha: true,
    lossless: true,
    metadata: true,
    tunables: {},
  },
  heic: {
    mime: 'image/heic',
    extensions: ['heic', 'heif'],
    aliases: [],
    sharpId: 'heif',
    animated: false,
    alpha: true,
    lossless: false,
    metadata: true,
    tunables: {},
  },
} as const satisfies Record<FormatId, FormatDeclaration>

export type FormatName = OutputFormat | (typeof FORMAT_TABLE)[OutputFormat]['aliases'][number]

/** `format=` values accepted by the API: every output id plus its declared aliases. */
export const FORMAT_NAMES = OUTPUT_FORMATS.flatMap((id) => [id, ...FORMAT_TABLE[id].aliases]) as FormatName[]

export function resolveFormatName(name: string): OutputFormat | undefined {
  return OUTPUT_FORMATS.find(
    (id) => id === name || (FORMAT_TABLE[id].aliases as readonly string[]).includes(name),
  )
}
