import { expect } from 'bun:test'
import { expectRed, pixelAt, type ReadbackCase } from './readback-runner.ts'
import {
  FORMAT_NAME as NAME,
  OUTPUTS,
  SMALL_WIDTH,
  TAG,
  WIDTH,
  type OutputFormat,
  type Output,
} from './readback-samples.ts'

/*
 * The options every output format takes (size, fit, enlargement, letterbox background,
 * metadata), read back from each format's output.
 */

/** What each format can carry with metadata=keep; libvips writes no EXIF directory into TIFF. */
const CARRIES: Record<OutputFormat, { exif: boolean; icc: boolean; xmp: boolean }> = {
  jpeg: { exif: true, icc: true, xmp: true },
  png: { exif: true, icc: true, xmp: true },
  webp: { exif: true, icc: true, xmp: true },
  avif: { exif: true, icc: true, xmp: true },
  gif: { exif: false, icc: false, xmp: false },
  tiff: { exif: false, icc: true, xmp: true },
}

function metadataFound(o: Output) {
  const m = o.metadata
  return {
    exif: m.exif?.includes(TAG.make) ?? false,
    icc: m.icc !== undefined,
    xmp: m.xmp?.toString('utf8').includes(TAG.creator) ?? false,
  }
}

const BOX_HEIGHT = (WIDTH * 3) / 4
const FITS = ['cover', 'fill', 'contain', 'inside', 'outside']

const size = (o: Output) => [o.metadata.width, o.metadata.pageHeight ?? o.metadata.height] as const

function sizeCasesFor(format: OutputFormat): ReadbackCase[] {
  const name = NAME[format]
  return [
    {
      behaviour: `${name} output with only width=${WIDTH} follows the aspect ratio`,
      format,
      requests: [{}],
      when: (s) => s.width >= WIDTH,
      check: ([o], s) => {
        const [width, height] = size(o!)
        expect(width).toBe(WIDTH)
        expect(Math.abs(height - (s.height * WIDTH) / s.width)).toBeLessThanOrEqual(1)
      },
    },
    {
      behaviour: `${name} output fills a ${WIDTH}x${BOX_HEIGHT} box exactly with cover, fill and contain, inside within it, outside around it`,
      format,
      requests: FITS.map((fit) => ({ height: String(BOX_HEIGHT), fit })),
      when: (s) => s.width >= WIDTH && s.height >= BOX_HEIGHT,
      check: (outputs) => {
        const [cover, fill, contain, inside, outside] = outputs.map(size)
        for (const exact of [cover, fill, contain]) expect(exact).toEqual([WIDTH, BOX_HEIGHT])
        const [iw, ih] = inside!
        const [ow, oh] = outside!
        expect(iw <= WIDTH && ih <= BOX_HEIGHT && (iw === WIDTH || ih === BOX_HEIGHT)).toBe(true)
        expect(ow >= WIDTH && oh >= BOX_HEIGHT && (ow === WIDTH || oh === BOX_HEIGHT)).toBe(true)
      },
    },
    {
      behaviour: `${name} output is never enlarged by default, and is with withoutEnlargement=false`,
      format,
      input: 'small',
      requests: [{ width: String(WIDTH) }, { width: String(WIDTH), withoutEnlargement: 'false' }],
      check: (outputs) => expect(outputs.map((o) => size(o)[0])).toEqual([SMALL_WIDTH, WIDTH]),
    },
  ]
}

function paintAndMetadataCasesFor(format: OutputFormat): ReadbackCase[] {
  const name = NAME[format]
  return [
    {
      behaviour: `${name} output letterboxes with the background colour for fit=contain`,
      format,
      requests: [{ height: String(WIDTH), fit: 'contain', background: '#ff0000' }],
      // Wide or tall enough that the letterbox is at least 6 pixels deep at the corner.
      when: (s) => (WIDTH * (1 - Math.min(s.width, s.height) / Math.max(s.width, s.height))) / 2 >= 6,
      check: async ([o]) => {
        expect(o!.ignored).not.toContain('background')
        expectRed(await pixelAt(o!, 0, 0), 24)
      },
    },
    {
      behaviour: `${name} output keeps what it can carry of EXIF, ICC and XMP with metadata=keep`,
      format,
      input: 'tagged',
      requests: [{ metadata: 'keep' }],
      check: ([o]) => {
        expect(metadataFound(o!)).toEqual(CARRIES[format])
        expect(o!.ignored.includes('metadata')).toBe(!CARRIES[format].exif && !CARRIES[format].icc)
      },
    },
    {
      behaviour: `${name} output has no EXIF, ICC or XMP with metadata=strip, the default`,
      format,
      input: 'tagged',
      requests: [{ metadata: 'strip' }, {}],
      check: (outputs) => {
        for (const o of outputs) expect(metadataFound(o)).toEqual({ exif: false, icc: false, xmp: false })
      },
    },
  ]
}

/** width, height, fit and withoutEnlargement: the resize step, the same for every format. */
export const SIZE_CASES: readonly ReadbackCase[] = OUTPUTS.flatMap(sizeCasesFor)

/** background (letterbox) and metadata, whose effect each format records its own way. */
export const PAINT_AND_METADATA_CASES: readonly ReadbackCase[] = OUTPUTS.flatMap(paintAndMetadataCasesFor)

export const COMMON_CASES: readonly ReadbackCase[] = [...SIZE_CASES, ...PAINT_AND_METADATA_CASES]
