/*
 * What bench/peers/peers.ts asks both servers for: one row per format at the setting IPX was compared
 * at, plus imgapi-only variants (extra query options) that are compared with the same IPX request.
 */

export const WIDTH = 1600
/** Small images, where the cost of each request beside its encode shows most. */
export const THUMBNAIL_WIDTH = 256
const THUMBNAIL_FORMATS = ['webp', 'jpeg'] as const
export const FORMATS = ['webp', 'avif', 'jpeg'] as const
export type PeerFormat = (typeof FORMATS)[number]

/** The settings the peer comparison was first made at. */
const QUALITY: Record<PeerFormat, number> = { webp: 75, avif: 50, jpeg: 80 }

/**
 * Requests per server per round, a multiple of the photo count so that each photo weighs the same.
 * For ~5-15 s per server per round on 2 quiet CPUs, 3 rounds when quick: WebP and JPEG cost
 * 0.1-0.3 CPU s a job, AVIF 1-5 s (IPX encodes it at effort 4, which costs it several times more).
 */
const REQUESTS_PER_ROUND: Record<PeerFormat, number> = { webp: 48, avif: 4, jpeg: 64 }
/** Thumbnails cost a decode at reduced size (shrink-on-load) and a tiny encode: 20-40 ms a job. */
const THUMBNAIL_REQUESTS_PER_ROUND = 160

/** WebP at a lower effort, and baseline JPEG (imgapi's progressive switches mozjpeg's scan search on). */
export const DEFAULT_VARIANTS = ['webp:effort=2', 'jpeg:progressive=false'] as const

export interface Row {
  /** e.g. "webp q75" or "webp q75 effort=2". */
  readonly name: string
  readonly format: PeerFormat
  readonly quality: number
  /** The width both servers resize to. */
  readonly width: number
  /** Query options imgapi gets beyond format, quality and width; empty for its defaults. */
  readonly extra: string
  /** From --variant (or the default variants): imgapi's request differs from the comparison's. */
  readonly variant: boolean
  readonly requestsPerRound: number
}

export const imgapiQuery = (row: Row): string =>
  `format=${row.format}&quality=${row.quality}&width=${row.width}${row.extra ? `&${row.extra}` : ''}`

/**
 * IPX's modifiers (its README: width / w, format / f, quality / q, `_` between name and value),
 * always at the format's comparison setting: a variant changes imgapi's request only.
 */
export const ipxPath = (row: Row, photo: string): string =>
  `/w_${row.width},f_${row.format},q_${QUALITY[row.format]}/${encodeURIComponent(photo)}`

const baseRow = (format: PeerFormat, photos: number): Row => ({
  name: `${format} q${QUALITY[format]}`,
  format,
  quality: QUALITY[format],
  width: WIDTH,
  extra: '',
  variant: false,
  requestsPerRound: roundUpTo(REQUESTS_PER_ROUND[format], photos),
})

/** The same comparison at THUMBNAIL_WIDTH: both servers' defaults, the photos' thumbnails. */
const thumbnailRow = (format: PeerFormat, photos: number): Row => ({
  ...baseRow(format, photos),
  name: `${format} q${QUALITY[format]} w${THUMBNAIL_WIDTH}`,
  width: THUMBNAIL_WIDTH,
  requestsPerRound: roundUpTo(THUMBNAIL_REQUESTS_PER_ROUND, photos),
})

function roundUpTo(count: number, step: number): number {
  return Math.ceil(count / step) * step
}

/**
 * `format:name=value[&name=value]`, e.g. `webp:effort=2`: imgapi's request for that format's
 * row with these options added (quality may be overridden too; width and format may not).
 */
export function parseVariant(spec: string, photos: number): Row {
  const match = /^(\w+):((?:\w+=[\w:.-]+)(?:&\w+=[\w:.-]+)*)$/.exec(spec)
  const format = FORMATS.find((name) => name === match?.[1])
  if (!match || !format) {
    throw new Error(`--variant expects <${FORMATS.join('|')}>:<option>=<value>[&...], received "${spec}"`)
  }
  const options = new URLSearchParams(match[2])
  for (const fixed of ['format', 'width']) {
    if (options.has(fixed)) throw new Error(`--variant ${spec}: ${fixed} is fixed by the comparison`)
  }
  const quality = Number(options.get('quality') ?? QUALITY[format])
  if (!Number.isInteger(quality)) throw new Error(`--variant ${spec}: quality must be an integer`)
  options.delete('quality')
  const base = baseRow(format, photos)
  const extra = options.toString()
  const name = [`${format} q${quality}`, ...[...options].map(([key, value]) => `${key}=${value}`)].join(' ')
  return { ...base, name, quality, extra, variant: true }
}

/** The three base rows, each followed by its format's variants. */
export function buildRows(variants: readonly string[], photos: number): Row[] {
  const extra = variants.map((spec) => parseVariant(spec, photos))
  return [
    ...FORMATS.flatMap((format) => [baseRow(format, photos), ...extra.filter((r) => r.format === format)]),
    ...THUMBNAIL_FORMATS.map((format) => thumbnailRow(format, photos)),
  ]
}
