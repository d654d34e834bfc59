import { expect } from 'bun:test'
import {
  avifChromaSubsampling,
  avifMatrixCoefficients,
  gifInterlaceFlags,
  jpegQualitiesOf,
  tiffCompression,
  webpChunks,
} from './format-bytes.ts'
import {
  bytesOf,
  expectDifferentFiles,
  expectRed,
  expectSamePixels,
  only,
  pixelAt,
  type ReadbackCase,
} from './readback-runner.ts'
import type { Output, Sample } from './readback-samples.ts'

/*
 * Each format's own options (quality, lossless, progressive, effort, chromaSubsampling), read
 * back from the output where the format records them: sharp's metadata, or the bytes themselves
 * (quantisation tables, chunk and box types, interlace flags, the TIFF compression tag), so an
 * option the encoder ignores fails here. Expectations come from the API's documentation, not
 * from the service's own tables.
 */

const progressive = (o: Output) => o.metadata.isProgressive
const colourOnly = (s: Sample) => s.colour

const JPEG_CASES: ReadbackCase[] = [
  {
    behaviour: 'JPEG output is baseline with progressive=false',
    format: 'jpeg',
    requests: [{ progressive: 'false' }],
    check: (outputs) => expect(progressive(only(outputs))).toBe(false),
  },
  {
    behaviour: 'JPEG output is progressive with progressive=true',
    format: 'jpeg',
    requests: [{ progressive: 'true' }],
    check: (outputs) => expect(progressive(only(outputs))).toBe(true),
  },
  {
    behaviour: 'JPEG output is progressive by default',
    format: 'jpeg',
    requests: [{}],
    check: (outputs) => expect(progressive(only(outputs))).toBe(true),
  },
  {
    behaviour:
      'JPEG effort=1 (trellis quantisation) gives another file than effort 0, no larger, at the same quality',
    format: 'jpeg',
    requests: [{ effort: '0' }, { effort: '1' }, {}],
    check: (outputs) => {
      expectDifferentFiles(outputs[0]!, outputs[1]!)
      expect(outputs[1]!.bytes.length).toBeLessThanOrEqual(outputs[0]!.bytes.length)
      expect(outputs[2]!.bytes).toEqual(outputs[0]!.bytes)
      expect(outputs.map((o) => jpegQualitiesOf(o.bytes))).toEqual([[80], [80], [80]])
    },
  },
  {
    behaviour: 'JPEG output has the chroma subsampling asked for, 4:2:0 by default',
    format: 'jpeg',
    requests: [{ chromaSubsampling: '4:2:0' }, { chromaSubsampling: '4:4:4' }, {}],
    when: colourOnly,
    check: (outputs) =>
      expect(outputs.map((o) => o.metadata.chromaSubsampling)).toEqual(['4:2:0', '4:4:4', '4:2:0']),
  },
  {
    behaviour: 'JPEG quality picks the quantisation table: read back as 30, 80 (default) and 90',
    format: 'jpeg',
    requests: [{ quality: '30' }, {}, { quality: '90' }],
    check: (outputs) => {
      expect(outputs.map((o) => jpegQualitiesOf(o.bytes))).toEqual([[30], [80], [90]])
      const [low, , high] = bytesOf(outputs)
      expect(low!).toBeLessThan(high!)
    },
  },
  {
    behaviour: 'JPEG output of a transparent image shows the background where it was transparent',
    format: 'jpeg',
    requests: [{ background: '#ff0000' }],
    when: (s) => s.transparentSpot !== undefined,
    check: async (outputs, sample) => {
      expect(only(outputs).ignored).not.toContain('background')
      const { x, y } = sample.transparentSpot!
      expectRed(await pixelAt(only(outputs), x, y), 24)
    },
  },
]

const PNG_CASES: ReadbackCase[] = [
  {
    behaviour: 'PNG output is interlaced with progressive=true',
    format: 'png',
    requests: [{ progressive: 'true' }],
    check: (outputs) => expect(progressive(only(outputs))).toBe(true),
  },
  {
    behaviour: 'PNG output is not interlaced by default',
    format: 'png',
    requests: [{}],
    check: (outputs) => expect(progressive(only(outputs))).toBe(false),
  },
  {
    behaviour: 'PNG output is palette-quantised by default (lossless=false)',
    format: 'png',
    requests: [{}],
    check: (outputs) => expect(only(outputs).metadata.isPalette).toBe(true),
  },
  {
    behaviour: 'PNG output with lossless=true is full colour and keeps every pixel',
    format: 'png',
    requests: [{ lossless: 'true' }],
    check: async (outputs, sample) => {
      expect(only(outputs).metadata.isPalette).toBe(false)
      await expectSamePixels(only(outputs), sample)
    },
  },
  {
    behaviour: 'PNG quality drives the palette: quality=10 is smaller than quality=100',
    format: 'png',
    requests: [{ quality: '10' }, { quality: '100' }],
    check: (outputs) => expect(bytesOf(outputs)[0]!).toBeLessThan(bytesOf(outputs)[1]!),
  },
  {
    behaviour: 'PNG effort drives the palette: effort=1 and effort=10 give different files',
    format: 'png',
    requests: [{ effort: '1' }, { effort: '10' }],
    check: (outputs) => expectDifferentFiles(outputs[0]!, outputs[1]!),
  },
]

const bitstreams = (o: Output) => webpChunks(o.bytes).filter((c) => c === 'VP8 ' || c === 'VP8L')

const WEBP_CASES: ReadbackCase[] = [
  {
    behaviour: 'WebP output is a lossless VP8L bitstream with lossless=true and keeps every pixel',
    format: 'webp',
    requests: [{ lossless: 'true' }],
    check: async (outputs, sample) => {
      expect(new Set(bitstreams(only(outputs)))).toEqual(new Set(['VP8L']))
      await expectSamePixels(only(outputs), sample)
    },
  },
  {
    behaviour: 'WebP output is a lossy VP8 bitstream by default',
    format: 'webp',
    requests: [{}],
    check: (outputs) => expect(new Set(bitstreams(only(outputs)))).toEqual(new Set(['VP8 '])),
  },
  {
    behaviour: 'WebP quality: quality=30 is smaller than quality=90',
    format: 'webp',
    requests: [{ quality: '30' }, { quality: '90' }],
    check: (outputs) => expect(bytesOf(outputs)[0]!).toBeLessThan(bytesOf(outputs)[1]!),
  },
  {
    behaviour: 'WebP smartSubsample=true gives another file than the default, which is without it',
    format: 'webp',
    requests: [{ smartSubsample: 'true' }, {}, { smartSubsample: 'false' }],
    when: colourOnly,
    check: (outputs) => {
      expectDifferentFiles(outputs[0]!, outputs[1]!)
      expect(outputs[1]!.bytes).toEqual(outputs[2]!.bytes)
      for (const o of outputs) expect(o.ignored).not.toContain('smartSubsample')
    },
  },
  {
    behaviour: 'WebP effort: effort=0 and effort=6 give different files, lossy and lossless',
    format: 'webp',
    requests: [
      { effort: '0' },
      { effort: '6' },
      { effort: '0', lossless: 'true' },
      { effort: '6', lossless: 'true' },
    ],
    check: (outputs) => {
      expectDifferentFiles(outputs[0]!, outputs[1]!)
      expectDifferentFiles(outputs[2]!, outputs[3]!)
      for (const o of outputs) expect(o.ignored).not.toContain('effort')
    },
  },
]

const AVIF_CASES: ReadbackCase[] = [
  {
    behaviour:
      'AVIF output with lossless=true is stored as RGB (identity matrix, 4:4:4) and keeps every pixel',
    format: 'avif',
    requests: [{ lossless: 'true' }],
    check: async (outputs, sample) => {
      expect(avifMatrixCoefficients(only(outputs).bytes)).toBe(0)
      if (sample.colour) expect(avifChromaSubsampling(only(outputs).bytes)).toBe('4:4:4')
      await expectSamePixels(only(outputs), sample)
    },
  },
  {
    behaviour: 'AVIF output has the chroma subsampling asked for (av1C box), 4:2:0 by default',
    format: 'avif',
    requests: [{ chromaSubsampling: '4:2:0' }, { chromaSubsampling: '4:4:4' }, {}],
    when: colourOnly,
    check: (outputs) =>
      expect(outputs.map((o) => avifChromaSubsampling(o.bytes))).toEqual(['4:2:0', '4:4:4', '4:2:0']),
  },
  {
    behaviour: 'AVIF quality: quality=30 is smaller than quality=80',
    format: 'avif',
    requests: [{ quality: '30' }, { quality: '80' }],
    check: (outputs) => expect(bytesOf(outputs)[0]!).toBeLessThan(bytesOf(outputs)[1]!),
  },
  {
    // Not 9: the slowest effort costs a tenth of a second even at this size.
    behaviour: 'AVIF effort: effort=0 and effort=2 give different files',
    format: 'avif',
    requests: [{ effort: '0' }, { effort: '2' }],
    check: (outputs) => expectDifferentFiles(outputs[0]!, outputs[1]!),
  },
]

const GIF_CASES: ReadbackCase[] = [
  {
    behaviour: 'GIF output has every frame interlaced with progressive=true',
    format: 'gif',
    requests: [{ progressive: 'true' }],
    check: (outputs) => {
      const flags = gifInterlaceFlags(only(outputs).bytes)
      expect(flags.length).toBeGreaterThan(0)
      expect(flags.every(Boolean)).toBe(true)
    },
  },
  {
    behaviour: 'GIF output has no frame interlaced by default',
    format: 'gif',
    requests: [{}],
    check: (outputs) => expect(gifInterlaceFlags(only(outputs).bytes).some(Boolean)).toBe(false),
  },
  {
    behaviour: 'GIF effort: effort=1 and effort=10 give different files',
    format: 'gif',
    requests: [{ effort: '1' }, { effort: '10' }],
    check: (outputs) => expectDifferentFiles(outputs[0]!, outputs[1]!),
  },
]

const TIFF_DEFLATE = 8
const TIFF_JPEG = 7

const TIFF_CASES: ReadbackCase[] = [
  {
    behaviour: 'TIFF output is deflate-compressed with lossless=true and keeps every pixel',
    format: 'tiff',
    requests: [{ lossless: 'true' }],
    check: async (outputs, sample) => {
      expect(tiffCompression(only(outputs).bytes)).toBe(TIFF_DEFLATE)
      await expectSamePixels(only(outputs), sample)
    },
  },
  {
    behaviour: 'TIFF output of an opaque image is JPEG-compressed by default, smaller at quality=30 than 90',
    format: 'tiff',
    requests: [{}, { quality: '30' }, { quality: '90' }],
    when: (s) => !s.hasAlpha,
    check: (outputs) => {
      expect(outputs.map((o) => tiffCompression(o.bytes))).toEqual([TIFF_JPEG, TIFF_JPEG, TIFF_JPEG])
      expect(bytesOf(outputs)[1]!).toBeLessThan(bytesOf(outputs)[2]!)
    },
  },
  {
    behaviour: 'TIFF output of a transparent image is deflate-compressed and lists quality as ignored',
    format: 'tiff',
    requests: [{ quality: '50' }],
    when: (s) => s.hasAlpha,
    check: (outputs) => {
      expect(tiffCompression(only(outputs).bytes)).toBe(TIFF_DEFLATE)
      expect(only(outputs).ignored).toContain('quality')
    },
  },
]

export const FORMAT_CASES: readonly ReadbackCase[] = [
  ...JPEG_CASES,
  ...PNG_CASES,
  ...WEBP_CASES,
  ...AVIF_CASES,
  ...GIF_CASES,
  ...TIFF_CASES,
]
